import type { ReactNode } from "react";

/** The card of the sign-in screens; `brand` adds the app name as a text logo beside it on wide screens. */
export function AuthCard(
  { brand, tagline, children }: { brand?: string; tagline?: string; children: ReactNode },
) {
  return (
    <div className={`auth-layout${brand ? " with-brand" : ""}`}>
      {brand && (
        <div className="auth-brand" aria-hidden="true">
          <span className="auth-logo">{brand}</span>
          {tagline && <span className="auth-tagline">{tagline}</span>}
        </div>
      )}
      <div className="card auth-card">{children}</div>
    </div>
  );
}
