import type { ReactNode } from "react";
import type { LogoInfo } from "../../../shared/api/appearance.ts";
import { BrandLogo } from "../../components/BrandLogo.tsx";

/** The card of the sign-in screens; `brand` adds the app name as a text logo beside it on wide screens. */
export function AuthCard(
  { brand, logo = null, tagline, children }: {
    brand?: string;
    /** The custom logo shown instead of the name as text. */
    logo?: LogoInfo;
    tagline?: string;
    children: ReactNode;
  },
) {
  return (
    <div className={`auth-layout${brand ? " with-brand" : ""}`}>
      {brand && (
        <div className="auth-brand" aria-hidden="true">
          <span className={`auth-logo${logo ? " with-logo" : ""}`}>
            <BrandLogo logo={logo} appName={brand} />
          </span>
          {tagline && <span className="auth-tagline">{tagline}</span>}
        </div>
      )}
      <div className="card auth-card">{children}</div>
    </div>
  );
}
