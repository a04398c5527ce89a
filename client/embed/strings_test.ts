import assert from "node:assert/strict";
import { t } from "./strings.ts";

Deno.test("widget texts come from locales/en.json's chatWidget section, with placeholders filled", () => {
  assert.equal(t("chatWidget.send"), "Send");
  assert.equal(
    t("chatWidget.failedCode", { status: 429 }),
    "An error occurred while streaming response. Code 429.",
  );
  assert.equal(t("chatWidget.streamBroken"), "The answer stopped before it was complete: {{message}}");
});
