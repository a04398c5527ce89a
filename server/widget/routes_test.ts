import assert from "node:assert/strict";
import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";
import { createTestApp } from "../testing/test_app.ts";
import { WIDGET_PATH, widgetRoutes } from "./routes.ts";

Deno.test("the chat widget script is served to any site: CORS open, cross-origin resource policy, cached with an ETag", async () => {
  await using app = await createTestApp();
  const answer = await app.request(WIDGET_PATH, { headers: { Origin: "https://shop.example" } });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(answer.headers.get("access-control-allow-origin"), "*");
  assert.equal(answer.headers.get("cross-origin-resource-policy"), "cross-origin");
  assert.match(answer.headers.get("cache-control") ?? "", /public, max-age=86400/);
  const etag = answer.headers.get("etag");
  assert.match(etag ?? "", /^"[0-9a-f]{32}"$/);
  const script = await answer.text();
  assert.ok(script.startsWith("(function(){"), "a self-contained script");
  assert.ok(script.includes("lectern_chat_"), "the widget's own code");

  const again = await app.request(WIDGET_PATH, { headers: { "If-None-Match": etag! } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  assert.equal(again.headers.get("etag"), etag);
  const changed = await app.request(WIDGET_PATH, { headers: { "If-None-Match": '"other"' } });
  assert.equal(changed.status, 200);
  await changed.body?.cancel();
});

Deno.test("only the widget script is opened: other answers keep the same-origin resource policy and no CORS", async () => {
  await using app = await createTestApp();
  for (const path of ["/api/ping", "/static/assets/none.js", "/embed/other.js"]) {
    const answer = await app.request(path, { headers: { Origin: "https://shop.example" } });
    assert.equal(answer.headers.get("cross-origin-resource-policy"), "same-origin", path);
    assert.equal(answer.headers.get("access-control-allow-origin"), null, path);
    await answer.body?.cancel();
  }
});

Deno.test("without a built widget the script's address answers 404 with a sentence", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-widget-" });
  try {
    const deps = { assets: { directory }, config: { dev: false } } as unknown as Deps;
    const app = new Hono<AppEnv>().route("/", widgetRoutes(deps));
    app.onError((error, c) =>
      error instanceof AppError ? c.json(error.body, error.status as 404) : c.text("unexpected", 500)
    );
    const answer = await app.request(WIDGET_PATH);
    assert.equal(answer.status, 404);
    assert.match(
      JSON.stringify(await answer.json()),
      /The chat widget is not built: run \\"deno task build\\"\./,
    );
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
