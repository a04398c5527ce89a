import * as z from "zod";
import { RawTextMetadata } from "./v1_documents.ts";

/**
 * The browser extension's calls (`/api/browser-extension/*`, the reference's `browserExtension.js`): the
 * screen's key management and the extension's own calls, which carry a `brx-…` key as a Bearer token.
 */

/** The name of the window message the screen posts with a new connection string (spec 01 §9). */
export const BROWSER_EXTENSION_EVENT = "NEW_BROWSER_EXTENSION_CONNECTION";

/** Every key the extension is given starts so (the reference's prefix). */
export const BROWSER_EXTENSION_KEY_PREFIX = "brx-";

/** What the extension pastes: the instance's API base and the key, `http://host/api|brx-…`. */
export function connectionString(apiBase: string, key: string): string {
  return `${apiBase}|${key}`;
}

/** A key in the list: never the key itself, only its masked form (`key`), and who made it (multi-user). */
export const BrowserExtensionKeyView = z.object({
  id: z.number(),
  key: z.string(),
  user_id: z.number().nullable(),
  user: z.object({ id: z.number(), username: z.string().nullable(), role: z.string() }).nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUpdatedAt: z.string(),
});
export type BrowserExtensionKeyView = z.infer<typeof BrowserExtensionKeyView>;

/** `GET /api/browser-extension/api-keys`. */
export const BrowserExtensionKeyList = z.object({
  success: z.boolean(),
  apiKeys: z.array(BrowserExtensionKeyView),
  error: z.string().nullable().optional(),
});

/** `POST /api/browser-extension/api-keys/new`: the whole key, the only time it is told. */
export const CreatedBrowserExtensionKey = z.object({
  apiKey: z.string().nullable(),
  error: z.string().nullable(),
});

const TEXT_MESSAGE = "textContent must be the page's text.";

/**
 * The page the extension sends (`upload-content`, and `embed-content` with `workspaceId`). A page without a
 * title is named after its address.
 */
export const ExtensionContentInput = z.object({
  textContent: z.string({ error: TEXT_MESSAGE }).min(1, TEXT_MESSAGE),
  metadata: z.preprocess(
    (value) => {
      const object = value && typeof value === "object" && !Array.isArray(value)
        ? value as Record<string, unknown>
        : {};
      const title = typeof object.title === "string" && object.title.trim() !== "" ? object.title : undefined;
      const url = typeof object.url === "string" && object.url.trim() !== "" ? object.url : undefined;
      return { ...object, title: (title ?? url ?? "Web page").slice(0, 500) };
    },
    RawTextMetadata,
  ),
});
export type ExtensionContentInput = z.infer<typeof ExtensionContentInput>;

const WORKSPACE_MESSAGE = "workspaceId must be the id of a workspace.";

export const ExtensionEmbedInput = ExtensionContentInput.extend({
  workspaceId: z.union([z.number(), z.string()], { error: WORKSPACE_MESSAGE }).transform((value) =>
    Number(value)
  )
    .refine((value) => Number.isSafeInteger(value) && value > 0, WORKSPACE_MESSAGE),
});
export type ExtensionEmbedInput = z.infer<typeof ExtensionEmbedInput>;
