export * from "./schema/settings.ts";
export * from "./schema/users.ts";
export * from "./schema/workspaces.ts";
export * from "./schema/documents.ts";
export * from "./schema/attachments.ts";
export * from "./schema/prompt_variables.ts";
export * from "./schema/prompt_history.ts";
export * from "./schema/api_keys.ts";
