/** The AWS regions the Bedrock form offers (the reference's list): code, short name, full name, public. */
export interface AwsRegion {
  code: string;
  name: string;
  fullName: string;
  /** Open to every account (GovCloud and China need accounts of their own). */
  public: boolean;
}

export const AWS_REGIONS: readonly AwsRegion[] = [
  { code: "us-east-1", name: "N. Virginia", fullName: "US East (N. Virginia)", public: true },
  { code: "us-east-2", name: "Ohio", fullName: "US East (Ohio)", public: true },
  { code: "us-west-1", name: "N. California", fullName: "US West (N. California)", public: true },
  { code: "us-west-2", name: "Oregon", fullName: "US West (Oregon)", public: true },
  { code: "us-gov-west-1", name: "GovCloud West", fullName: "AWS GovCloud (US)", public: false },
  { code: "us-gov-east-1", name: "GovCloud East", fullName: "AWS GovCloud (US-East)", public: false },
  { code: "ca-central-1", name: "Canada", fullName: "Canada (Central)", public: true },
  { code: "eu-north-1", name: "Stockholm", fullName: "EU (Stockholm)", public: true },
  { code: "eu-west-1", name: "Ireland", fullName: "EU (Ireland)", public: true },
  { code: "eu-west-2", name: "London", fullName: "EU (London)", public: true },
  { code: "eu-west-3", name: "Paris", fullName: "EU (Paris)", public: true },
  { code: "eu-central-1", name: "Frankfurt", fullName: "EU (Frankfurt)", public: true },
  { code: "eu-south-1", name: "Milan", fullName: "EU (Milan)", public: true },
  { code: "af-south-1", name: "Cape Town", fullName: "Africa (Cape Town)", public: true },
  { code: "ap-northeast-1", name: "Tokyo", fullName: "Asia Pacific (Tokyo)", public: true },
  { code: "ap-northeast-2", name: "Seoul", fullName: "Asia Pacific (Seoul)", public: true },
  { code: "ap-northeast-3", name: "Osaka", fullName: "Asia Pacific (Osaka-Local)", public: true },
  { code: "ap-southeast-1", name: "Singapore", fullName: "Asia Pacific (Singapore)", public: true },
  { code: "ap-southeast-2", name: "Sydney", fullName: "Asia Pacific (Sydney)", public: true },
  { code: "ap-southeast-3", name: "Jakarta", fullName: "Asia Pacific (Jakarta)", public: true },
  { code: "ap-east-1", name: "Hong Kong", fullName: "Asia Pacific (Hong Kong)", public: true },
  { code: "ap-south-1", name: "Mumbai", fullName: "Asia Pacific (Mumbai)", public: true },
  { code: "sa-east-1", name: "São Paulo", fullName: "South America (São Paulo)", public: true },
  { code: "me-south-1", name: "Bahrain", fullName: "Middle East (Bahrain)", public: true },
  { code: "cn-north-1", name: "Beijing", fullName: "China (Beijing)", public: false },
  { code: "cn-northwest-1", name: "Ningxia", fullName: "China (Ningxia)", public: false },
];
