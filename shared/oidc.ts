import * as z from "zod";

/**
 * OpenID Connect login (issue 24): the update-env keys of Settings → Security, each with the environment
 * variable that fixes it. The client secret is stored encrypted and never returned.
 */
export const OIDC_SETTINGS = {
  enabled: "OidcEnabled",
  issuer: "OidcIssuer",
  clientId: "OidcClientId",
  clientSecret: "OidcClientSecret",
  scopes: "OidcScopes",
  usernameClaim: "OidcUsernameClaim",
  groupsClaim: "OidcGroupsClaim",
  roleMapping: "OidcRoleMapping",
  workspaceMapping: "OidcWorkspaceMapping",
  autoCreateUsers: "OidcAutoCreateUsers",
  linkExistingUsers: "OidcLinkExistingUsers",
  buttonLabel: "OidcButtonLabel",
  passwordLoginDisabled: "PasswordLoginDisabled",
} as const;

export const OIDC_ENV: Record<keyof typeof OIDC_SETTINGS, string> = {
  enabled: "OIDC_ENABLED",
  issuer: "OIDC_ISSUER",
  clientId: "OIDC_CLIENT_ID",
  clientSecret: "OIDC_CLIENT_SECRET",
  scopes: "OIDC_SCOPES",
  usernameClaim: "OIDC_USERNAME_CLAIM",
  groupsClaim: "OIDC_GROUPS_CLAIM",
  roleMapping: "OIDC_ROLE_MAPPING",
  workspaceMapping: "OIDC_WORKSPACE_MAPPING",
  autoCreateUsers: "OIDC_AUTO_CREATE_USERS",
  linkExistingUsers: "OIDC_LINK_EXISTING_USERS",
  buttonLabel: "OIDC_BUTTON_LABEL",
  passwordLoginDisabled: "PASSWORD_LOGIN_DISABLED",
};

export const OIDC_DEFAULTS = {
  scopes: "openid profile email",
  usernameClaim: "preferred_username",
} as const;

export const OIDC_ROLES = ["admin", "manager", "default"] as const;
export type OidcRole = (typeof OIDC_ROLES)[number];

/** The lines of a mapping: `group = value`, blank lines and `#` comments left out. */
function mappingLines(text: string): { line: number; group: string; value: string }[] | string {
  const entries: { line: number; group: string; value: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index].trim();
    if (!raw || raw.startsWith("#")) continue;
    const equals = raw.lastIndexOf("=");
    const group = equals > 0 ? raw.slice(0, equals).trim() : "";
    const value = equals > 0 ? raw.slice(equals + 1).trim() : "";
    if (!group || !value) return `Line ${index + 1} must read "group = value".`;
    entries.push({ line: index + 1, group, value });
  }
  return entries;
}

/** `group = role` lines: which identity-provider group gives which Lectern role. A problem is a sentence. */
export function parseRoleMapping(text: string): Map<string, OidcRole> | string {
  const lines = mappingLines(text);
  if (typeof lines === "string") return lines;
  const mapping = new Map<string, OidcRole>();
  for (const { line, group, value } of lines) {
    if (!(OIDC_ROLES as readonly string[]).includes(value)) {
      return `Line ${line}: the role must be one of ${OIDC_ROLES.join(", ")}.`;
    }
    mapping.set(group, value as OidcRole);
  }
  return mapping;
}

/** `group = workspace-slug, other-slug` lines: the workspaces a group's members join. */
export function parseWorkspaceMapping(text: string): Map<string, string[]> | string {
  const lines = mappingLines(text);
  if (typeof lines === "string") return lines;
  const mapping = new Map<string, string[]>();
  for (const { group, value } of lines) {
    const slugs = value.split(",").map((slug) => slug.trim()).filter(Boolean);
    mapping.set(group, [...(mapping.get(group) ?? []), ...slugs]);
  }
  return mapping;
}

const ROLE_RANK: Record<OidcRole, number> = { default: 0, manager: 1, admin: 2 };

/**
 * The role the groups give: the highest one the mapping names for any of them, or null when the mapping names
 * none of them (a group that the mapping does not name gives nothing, so no group can make an admin by itself).
 */
export function roleOfGroups(mapping: Map<string, OidcRole>, groups: readonly string[]): OidcRole | null {
  let best: OidcRole | null = null;
  for (const group of groups) {
    const role = mapping.get(group);
    if (role && (best === null || ROLE_RANK[role] > ROLE_RANK[best])) best = role;
  }
  return best;
}

/** A setting's check that runs a parser returning a problem sentence. */
export const mappingSchema = (parse: (text: string) => unknown) =>
  z.string().superRefine((value, context) => {
    const parsed = parse(value);
    if (typeof parsed === "string") context.addIssue({ code: "custom", message: parsed });
  });
