import { type LogoInfo, logoUrl } from "../../shared/logo.ts";

/**
 * The instance's custom logo (its dark variant when the system is dark and one was uploaded), or the app name as
 * a text logo when there is none.
 */
export function BrandLogo({ logo, appName, className = "brand-logo" }: {
  logo: LogoInfo;
  appName: string;
  className?: string;
}) {
  if (!logo) return <>{appName}</>;
  return (
    <picture>
      {logo.dark && <source srcSet={logoUrl("dark", logo.version)} media="(prefers-color-scheme: dark)" />}
      <img className={className} src={logoUrl("light", logo.version)} alt={appName} />
    </picture>
  );
}
