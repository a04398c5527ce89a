// The answer schemas a page's first-load code parses with, gathered in one module that is fetched lazily
// (client/lib/lazy_schema.ts): zod and these schemas arrive with the first API call that needs them.
export * as auth from "../../shared/api/auth.ts";
export * as threads from "../features/threads/schemas.ts";
export * as setup from "../features/settings/setup_schemas.ts";
export * as search from "../../shared/api/search.ts";
export * as workspaces from "../../shared/api/workspaces.ts";
export * as chat from "../../shared/api/chat.ts";
export * as attachments from "../../shared/api/attachments.ts";
export * as library from "../../shared/api/library.ts";
export * as documents from "../features/documents/schemas.ts";
