import assert from "node:assert/strict";
import { embedOrigin } from "../../../shared/api/embeds.ts";
import { embedBody, embedFormProblems, embedSnippet, emptyEmbedForm, typedDomains } from "./embeds.ts";

Deno.test("embed form: domains as typed become origins, bad ones and bad limits are problems", () => {
  assert.equal(embedOrigin("shop.example"), "https://shop.example");
  assert.equal(embedOrigin("http://localhost:8080/"), "http://localhost:8080");
  assert.equal(embedOrigin("ftp://files.example"), null);
  assert.equal(embedOrigin("https://shop.example/path"), null);
  assert.deepEqual(typedDomains("a.example, b.example\nc.example"), ["a.example", "b.example", "c.example"]);

  const form = {
    ...emptyEmbedForm("3"),
    domains: "shop.example\nhttps://x.example/path",
    maxChatsPerDay: "-2",
  };
  const problems = embedFormProblems(form);
  assert.deepEqual(problems.domains, { key: "badDomain", value: "https://x.example/path" });
  assert.equal(problems.maxChatsPerDay?.key, "wholeNumber");
  assert.deepEqual(embedFormProblems(emptyEmbedForm("")), { workspaceId: { key: "noWorkspace" } });
  assert.deepEqual(embedFormProblems(emptyEmbedForm("3")), {});
});

Deno.test("embed form: the body has the reference's fields; empty limits are none", () => {
  const body = embedBody({ ...emptyEmbedForm("3"), domains: "shop.example", maxChatsPerSession: "5" });
  assert.deepEqual(body, {
    workspace_id: 3,
    chat_mode: "query",
    allowlist_domains: ["shop.example"],
    max_chats_per_day: null,
    max_chats_per_session: 5,
    message_limit: 20,
    allow_model_override: false,
    allow_temperature_override: false,
    allow_prompt_override: false,
  });
  assert.equal(embedBody(emptyEmbedForm("3")).allowlist_domains, null);
});

Deno.test("embed snippet: the widget's script tag with this instance's API and script", () => {
  assert.equal(
    embedSnippet("0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a", "https://lectern.example"),
    '<script data-embed-id="0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a" data-base-api-url="https://lectern.example/api/embed" src="https://lectern.example/embed/lectern-chat-widget.min.js"></script>',
  );
});
