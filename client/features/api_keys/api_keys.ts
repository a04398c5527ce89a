import {
  API_KEY_PERMISSIONS,
  type ApiKeyPermission,
  type ApiKeyScope,
  type ApiKeyView,
  MAX_API_KEY_NAME,
  MAX_API_KEY_RATE_LIMIT,
} from "../../../shared/api/api_keys.ts";

/**
 * The API keys screen's calls: the reference's `/system/…` family on a single-user instance, `/admin/…` with
 * accounts (where the server keeps `/admin/…` for multi-user mode).
 */
export function apiKeyPaths(multiUser: boolean) {
  return multiUser
    ? {
      list: "/admin/api-keys",
      generate: "/admin/generate-api-key",
      remove: (id: number) => `/admin/delete-api-key/${id}`,
    }
    : {
      list: "/system/api-keys",
      generate: "/system/generate-api-key",
      remove: (id: number) => `/system/api-key/${id}`,
    };
}

/** What the "Generate new API key" form holds, as typed. */
export interface KeyForm {
  name: string;
  scope: ApiKeyScope;
  workspaceIds: ReadonlySet<number>;
  permissions: ReadonlySet<ApiKeyPermission>;
  /** Requests per minute as typed; empty for no limit. */
  rateLimit: string;
}

export function emptyKeyForm(): KeyForm {
  return {
    name: "",
    scope: "admin",
    workspaceIds: new Set(),
    permissions: new Set(["chat", "read"]),
    rateLimit: "",
  };
}

/** A field's problem, as the i18n key of its message under `apiKeys.form.problems`. */
export type KeyFormProblems = Partial<
  Record<
    "name" | "workspaceIds" | "permissions" | "rateLimit",
    "nameTooLong" | "noWorkspace" | "noPermission" | "rateLimit"
  >
>;

/** The form's problems (the server's own rules, GenerateApiKeyBody, checked before sending). */
export function keyFormProblems(form: KeyForm): KeyFormProblems {
  const problems: KeyFormProblems = {};
  if (form.name.trim().length > MAX_API_KEY_NAME) problems.name = "nameTooLong";
  if (form.scope === "workspaces") {
    if (form.workspaceIds.size === 0) problems.workspaceIds = "noWorkspace";
    if (form.permissions.size === 0) problems.permissions = "noPermission";
  }
  if (form.rateLimit.trim() !== "" && parseRateLimit(form.rateLimit) === null) {
    problems.rateLimit = "rateLimit";
  }
  return problems;
}

/** A typed rate limit as a whole number of requests per minute within the server's bounds, else null. */
export function parseRateLimit(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_API_KEY_RATE_LIMIT ? value : null;
}

/** The body of generate-api-key: workspaces and permissions only for a key limited to workspaces. */
export function keyBody(form: KeyForm) {
  const limited = form.scope === "workspaces";
  return {
    name: form.name.trim() || null,
    scope: form.scope,
    workspaceIds: limited ? [...form.workspaceIds].sort((a, b) => a - b) : [],
    permissions: limited ? API_KEY_PERMISSIONS.filter((permission) => form.permissions.has(permission)) : [],
    rateLimit: form.rateLimit.trim() === "" ? null : parseRateLimit(form.rateLimit),
  };
}

/** What a key may reach, for its row: the scope, and for a limited key its workspaces' names and permissions. */
export interface ScopeSummary {
  scope: ApiKeyScope;
  workspaces: string[];
  permissions: ApiKeyPermission[];
}

export function scopeSummary(key: Pick<ApiKeyView, "scope" | "workspaces" | "permissions">): ScopeSummary {
  if (key.scope !== "workspaces") return { scope: key.scope, workspaces: [], permissions: [] };
  return {
    scope: key.scope,
    workspaces: key.workspaces.map((workspace) => workspace.name).sort((a, b) => a.localeCompare(b)),
    permissions: API_KEY_PERMISSIONS.filter((permission) => key.permissions.includes(permission)),
  };
}

/** Toggles one value of a set, returning a new set. */
export function toggled<T>(set: ReadonlySet<T>, value: T): ReadonlySet<T> {
  const next = new Set(set);
  if (!next.delete(value)) next.add(value);
  return next;
}
