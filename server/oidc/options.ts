import { OIDC_SETTINGS, type OidcRole, parseRoleMapping, parseWorkspaceMapping } from "../../shared/oidc.ts";
/** What the options read: the instance settings (structurally, so the settings service can use this too). */
interface SettingsReader {
  settings: { readonly multiUserMode: boolean; value(key: string): string | undefined };
}

/** The identity provider's settings, when OIDC login is on and complete; it needs multi-user mode. */
export interface OidcOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  roleMapping: Map<string, OidcRole>;
  workspaceMapping: Map<string, string[]>;
  autoCreateUsers: boolean;
  linkExistingUsers: boolean;
  label: string;
}

export function oidcOptions(deps: SettingsReader): OidcOptions | null {
  const value = (key: string) => deps.settings.value(key) ?? "";
  if (!deps.settings.multiUserMode || value(OIDC_SETTINGS.enabled) !== "true") return null;
  const issuer = value(OIDC_SETTINGS.issuer);
  const clientId = value(OIDC_SETTINGS.clientId);
  if (!issuer || !clientId) return null;
  const roleMapping = parseRoleMapping(value(OIDC_SETTINGS.roleMapping));
  const workspaceMapping = parseWorkspaceMapping(value(OIDC_SETTINGS.workspaceMapping));
  return {
    issuer,
    clientId,
    clientSecret: value(OIDC_SETTINGS.clientSecret),
    scopes: value(OIDC_SETTINGS.scopes),
    usernameClaim: value(OIDC_SETTINGS.usernameClaim),
    groupsClaim: value(OIDC_SETTINGS.groupsClaim),
    // Both were checked when saved; a mapping that no longer parses maps nothing.
    roleMapping: typeof roleMapping === "string" ? new Map() : roleMapping,
    workspaceMapping: typeof workspaceMapping === "string" ? new Map() : workspaceMapping,
    autoCreateUsers: value(OIDC_SETTINGS.autoCreateUsers) !== "false",
    linkExistingUsers: value(OIDC_SETTINGS.linkExistingUsers) === "true",
    label: value(OIDC_SETTINGS.buttonLabel) || new URL(issuer).hostname,
  };
}

/** What the login screen needs: the button's provider name, and whether the password form is off. */
export function oidcLoginInfo(
  deps: SettingsReader,
): { OidcLogin: string | null; PasswordLogin: boolean } {
  const options = oidcOptions(deps);
  return { OidcLogin: options?.label ?? null, PasswordLogin: !passwordLoginDisabled(deps) };
}

/** Password login is off only while OIDC login works: turning OIDC off brings the password form back. */
export function passwordLoginDisabled(deps: SettingsReader): boolean {
  return oidcOptions(deps) !== null && deps.settings.value(OIDC_SETTINGS.passwordLoginDisabled) === "true";
}
