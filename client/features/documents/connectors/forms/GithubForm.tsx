import { type ConnectorFormProps, RepoForm } from "./RepoForm.tsx";

export function GithubForm(props: ConnectorFormProps) {
  return <RepoForm host="github" {...props} />;
}
