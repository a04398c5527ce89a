import { inArray } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import type { ApiKeyPermission } from "../../shared/api/api_keys.ts";
import type { ApiKeyGrant } from "../api_keys/service.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

/**
 * What a developer API call needs of its key:
 * - `any`: every valid key (the key check itself, the accepted file types);
 * - `instance`: instance-wide data; reads (`write: false`) are open to read-only keys, changes only to full keys;
 * - `admin`: full keys only, even to read (sign-in tokens for users);
 * - `workspace`: the workspace named by the route's `:slug` (or by the body: the handler calls
 *   `requireWorkspaceAccess`), with a permission of a workspace-limited key; "manage" (settings, deletion) is
 *   for full keys only.
 */
export type Need =
  | { kind: "any" }
  | { kind: "instance"; write: boolean }
  | { kind: "admin" }
  | { kind: "workspace"; permission: ApiKeyPermission | "manage"; from?: "param" | "body" };

export const needs = {
  any: { kind: "any" },
  read: { kind: "instance", write: false },
  write: { kind: "instance", write: true },
  admin: { kind: "admin" },
  workspace: (permission: ApiKeyPermission | "manage", from: "param" | "body" = "param"): Need => ({
    kind: "workspace",
    permission,
    from,
  }),
} as const satisfies Record<string, Need | ((...args: never[]) => Need)>;

const VERB: Record<ApiKeyPermission | "manage", string> = {
  chat: "chat",
  documents: "manage documents",
  read: "read",
  manage: "change a workspace's settings or delete it",
};

type Db = Pick<Deps, "db">;

/** The slugs of a workspace-limited key's workspaces, for its refusals. */
async function slugsOf(deps: Db, grant: ApiKeyGrant): Promise<string> {
  const rows = grant.workspaceIds.length === 0
    ? []
    : await deps.db.select({ slug: workspaces.slug }).from(workspaces).where(
      inArray(workspaces.id, grant.workspaceIds),
    );
  return rows.length === 0 ? "(none left)" : rows.map((row) => `"${row.slug}"`).join(", ");
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * Why `grant` may not do what `need` asks (in `workspace`, when the call names one), or null when it may. Each
 * refusal is a sentence naming the key's scope.
 */
export async function refusal(
  deps: Db,
  grant: ApiKeyGrant,
  need: Need,
  workspace?: { id: number; slug: string } | null,
): Promise<string | null> {
  if (grant.scope === "admin" || need.kind === "any") return null;
  if (grant.scope === "read") {
    if (need.kind === "instance" && !need.write) return null;
    if (need.kind === "workspace" && need.permission === "read") return null;
    return need.kind === "admin"
      ? "This API key is read-only, so it cannot do this: only a full-access key can."
      : "This API key is read-only, so it cannot make changes.";
  }
  if (need.kind !== "workspace") {
    return `This API key is limited to the workspaces ${await slugsOf(
      deps,
      grant,
    )}, so it cannot make instance-wide calls.`;
  }
  if (!workspace || !grant.workspaceIds.includes(workspace.id)) {
    const name = workspace?.slug ?? "";
    return `This API key is limited to the workspaces ${await slugsOf(
      deps,
      grant,
    )}, so it cannot use the workspace "${name}".`;
  }
  if (need.permission === "manage" || !grant.permissions.includes(need.permission)) {
    return `This API key may only ${
      list(grant.permissions.map((permission) => VERB[permission]))
    } in its workspaces, so it cannot ${VERB[need.permission]}.`;
  }
  return null;
}

/** The 403 of a refused key, in the developer API's error shape. */
export function forbidden(message: string): AppError {
  return new AppError("forbidden", message, { body: { error: message } });
}

/** Throws the key's refusal, if it has one. */
export async function requireAccess(
  deps: Db,
  grant: ApiKeyGrant | undefined,
  need: Need,
  workspace?: { id: number; slug: string } | null,
): Promise<void> {
  if (!grant) throw forbidden("No valid api key found.");
  const message = await refusal(deps, grant, need, workspace);
  if (message) throw forbidden(message);
}

/** The workspace ids a key may see, or null when it sees them all (full and read-only keys). */
export function visibleWorkspaceIds(grant: ApiKeyGrant | undefined): Set<number> | null {
  return grant?.scope === "workspaces" ? new Set(grant.workspaceIds) : null;
}
