import type { ApiKeyPermission, ApiKeyScope } from "../../shared/api/api_keys.ts";

/** A key as the auth guard sees it: who may do what. */
export interface ApiKeyGrant {
  id: number;
  name: string | null;
  scope: ApiKeyScope;
  workspaceIds: number[];
  permissions: ApiKeyPermission[];
  rateLimit: number | null;
}
