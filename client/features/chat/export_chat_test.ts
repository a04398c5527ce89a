import assert from "node:assert/strict";
import { EXPORT_CHAT_TYPES, exportChatFilename, exportChatRequest } from "./export_chat.ts";
import { THREAD_EXPORT_TYPES } from "../../../shared/api/chat_export.ts";

Deno.test("the chat export menu offers every type the server answers, and names the file", () => {
  assert.deepEqual([...EXPORT_CHAT_TYPES].sort(), [...THREAD_EXPORT_TYPES].sort());
  assert.deepEqual(exportChatRequest("pdf", "harbour", "t-1"), {
    path: "/api/export-chat/pdf",
    body: '{"workspaceSlug":"harbour","threadSlug":"t-1"}',
  });
  assert.equal(
    exportChatRequest("json", "harbour", null).body,
    '{"workspaceSlug":"harbour","threadSlug":null}',
  );
  assert.equal(
    exportChatFilename('attachment; filename="Bay Export - 2026-01-02.md"', "markdown"),
    "Bay Export - 2026-01-02.md",
  );
  assert.equal(
    exportChatFilename(null, "plaintext", new Date("2026-03-04T10:00:00Z")),
    "Lectern Export - 2026-03-04.txt",
  );
});
