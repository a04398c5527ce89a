import assert from "node:assert/strict";
import { NATIVE_RERANKER_MODEL, RERANKER_SETTINGS } from "../../../shared/providers/reranker_catalog.ts";
import { createLogger } from "../../log.ts";
import { configuredTestApp } from "../../testing/test_app.ts";
import { genericReranker, scoresOf } from "./api.ts";
import { rerankerFromSettings } from "./registry.ts";
import { rerankHits } from "./rerank.ts";
import { writeTinyCrossEncoder } from "./testing/tiny_cross_encoder.ts";
import type { Reranker } from "./types.ts";

// onnxruntime keeps native threads and handles for the life of the process.
const options = { sanitizeResources: false, sanitizeOps: false };

interface Seen {
  path: string;
  auth: string | null;
  body: Record<string, unknown>;
}

/** One loopback server answering each API's rerank call in that API's shape, by relevance to "fredville". */
function startFake() {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    const body = await request.json();
    seen.push({ path, auth: request.headers.get("authorization"), body });
    const texts: string[] = body.documents ?? body.texts;
    if (path.startsWith("/fail")) return new Response("overloaded", { status: 503 });
    const ranked = texts.map((text, index) => ({
      index,
      score: text.includes("fredville") ? 0.9 : 0.1 / (index + 1),
    }))
      .sort((a, b) => b.score - a.score);
    if (path === "/tei/rerank") return Response.json(ranked);
    const results = ranked.map(({ index, score }) => ({ index, relevance_score: score }));
    return Response.json(path === "/voyage/v1/rerank" ? { data: results } : { results });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { seen, base, close: () => server.shutdown() };
}

const settingsOf = (values: Record<string, string>) => ({ value: (key: string) => values[key] });
const TEXTS = ["about bread", "the capital is fredville", "about cheese"];

Deno.test("API rerankers: Cohere, Jina, Voyage and the common /rerank call (llama.cpp, vLLM, TEI)", async () => {
  const fake = startFake();
  try {
    const cases = [
      { provider: "cohere", base: `${fake.base}/cohere`, path: "/cohere/v2/rerank", model: "rerank-v3.5" },
      {
        provider: "jina",
        base: `${fake.base}/jina`,
        path: "/jina/v1/rerank",
        model: "jina-reranker-v2-base-multilingual",
      },
      {
        provider: "voyageai",
        base: `${fake.base}/voyage`,
        path: "/voyage/v1/rerank",
        model: "rerank-2.5-lite",
      },
      { provider: "generic", base: `${fake.base}/v1`, path: "/v1/rerank", model: "bge-reranker" },
      { provider: "generic", base: `${fake.base}/tei`, path: "/tei/rerank", model: "" },
    ];
    for (const item of cases) {
      const reranker = rerankerFromSettings(
        settingsOf({
          [RERANKER_SETTINGS.provider]: item.provider,
          [RERANKER_SETTINGS.basePath]: item.base,
          [RERANKER_SETTINGS.apiKey]: "secret-key",
          ...(item.model && item.provider === "generic" ? { [RERANKER_SETTINGS.model]: item.model } : {}),
        }),
        {},
      );
      const scores = await reranker.score("capital of freedonia?", TEXTS);
      assert.equal(scores.length, 3, item.path);
      assert.ok(scores[1] > scores[0] && scores[1] > scores[2], `${item.path}: ${scores}`);
      const request = fake.seen.at(-1)!;
      assert.equal(request.path, item.path);
      assert.equal(request.auth, "Bearer secret-key");
      assert.equal(request.body.query, "capital of freedonia?");
      assert.deepEqual(request.body.documents, TEXTS);
      if (item.model) assert.equal(request.body.model, item.model, item.path);
      if (item.provider === "voyageai") assert.equal(request.body.top_k, 3);
      if (item.provider === "cohere") assert.equal(request.body.top_n, 3);
    }
    assert.throws(
      () => rerankerFromSettings(settingsOf({ [RERANKER_SETTINGS.provider]: "cohere" }), {}),
      /The Cohere reranker needs an API key\./,
    );
    assert.throws(
      () => rerankerFromSettings(settingsOf({ [RERANKER_SETTINGS.provider]: "generic" }), {}),
      /needs a base URL\./,
    );
  } finally {
    await fake.close();
  }
});

Deno.test("scoresOf: answers in any order give scores in the texts' order; bad answers are errors", () => {
  assert.deepEqual(
    scoresOf("x", { results: [{ index: 1, relevance_score: 0.5 }, { index: 0, relevance_score: 0.2 }] }, 2),
    [
      0.2,
      0.5,
    ],
  );
  assert.deepEqual(scoresOf("x", [{ index: 0, score: 3 }], 2), [3, -Infinity]);
  assert.throws(() => scoresOf("x", { nothing: true }, 1), /has no results\./);
  assert.throws(() => scoresOf("x", { results: [{ index: 5, relevance_score: 1 }] }, 1), /not an index/);
});

Deno.test("rerankHits: re-scored and cut to topN; a failing reranker keeps the search order and logs why", async () => {
  const hits = TEXTS.map((text, index) => ({ id: String(index), text }));
  const lines: string[] = [];
  const log = createLogger("debug", (line) => lines.push(line));
  const byLength: Reranker = {
    label: "length",
    score: (_query, texts) => Promise.resolve(texts.map((text) => text.length)),
  };
  assert.deepEqual((await rerankHits(byLength, "q", hits, 2, log)).map((hit) => hit.id), ["1", "2"]);
  assert.deepEqual((await rerankHits(null, "q", hits, 2, log)).map((hit) => hit.id), ["0", "1"]);

  const fake = startFake();
  try {
    const failing = genericReranker({ baseUrl: `${fake.base}/fail`, model: "m" });
    assert.deepEqual((await rerankHits(failing, "q", hits, 2, log)).map((hit) => hit.id), ["0", "1"]);
    assert.ok(
      lines.some((line) => /Reranking failed; the search order is kept/.test(line) && /503/.test(line)),
      lines.join("\n"),
    );
    const short: Reranker = { label: "short", score: () => Promise.resolve([1]) };
    assert.deepEqual((await rerankHits(short, "q", hits, 3, log)).map((hit) => hit.id), ["0", "1", "2"]);
    assert.ok(lines.some((line) => /1 scores for 3 candidates/.test(line)));
  } finally {
    await fake.close();
  }
});

Deno.test({
  name: "the local reranker runs a cross-encoder from STORAGE_DIR/models with the embedder's ONNX runtime",
  ...options,
  async fn() {
    const modelsDir = await Deno.makeTempDir({ prefix: "lectern-rerankers-" });
    try {
      const settings = settingsOf({});
      await assert.rejects(
        () => rerankerFromSettings(settings, { modelsDir }).score("q", ["a"]),
        /The reranking model Xenova\/ms-marco-MiniLM-L-6-v2 is not installed: .* lacks config\.json/,
      );
      await writeTinyCrossEncoder(modelsDir, NATIVE_RERANKER_MODEL, { fredville: 5, river: 1, bread: -1 });
      const reranker = rerankerFromSettings(settings, { modelsDir });
      const scores = await reranker.score("what is the capital of freedonia", [
        "how to bake bread",
        "the capital is fredville on the river",
        "small cheese",
      ]);
      assert.equal(scores.length, 3);
      assert.ok(Math.abs(scores[1] - 6) < 1e-4, String(scores));
      assert.ok(Math.abs(scores[0] + 1) < 1e-4, String(scores));
      assert.ok(Math.abs(scores[2]) < 1e-4, String(scores));
      const ordered = await rerankHits(
        reranker,
        "capital",
        ["small cheese", "bread", "fredville"].map((text) => ({ text })),
        2,
        createLogger("error", () => {}),
      );
      assert.deepEqual(ordered.map((hit) => hit.text), ["fredville", "small cheese"]);
    } finally {
      await Deno.remove(modelsDir, { recursive: true });
    }
  },
});

Deno.test("update-env takes the reranker settings, checks them, and never answers the key", async () => {
  await using app = await configuredTestApp();
  const bad = await app.json<{ error: string }>("/api/system/update-env", {
    json: { RerankerProvider: "skynet", RerankerBasePath: "not a url" },
  });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /RerankerProvider: skynet is not a supported reranker\./);
  assert.match(bad.body.error, /RerankerBasePath: URL is not a valid URL\./);

  const saved = await app.json<{ newValues: Record<string, unknown> }>("/api/system/update-env", {
    json: {
      RerankerProvider: "jina",
      RerankerModelPref: "jina-reranker-v2-base-multilingual",
      RerankerBasePath: "http://127.0.0.1:9/",
      RerankerApiKey: "jina-secret",
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.doesNotMatch(JSON.stringify(saved.body), /jina-secret/);
  assert.equal(app.deps.settings.value(RERANKER_SETTINGS.basePath), "http://127.0.0.1:9");
  assert.equal(app.deps.settings.value(RERANKER_SETTINGS.apiKey), "jina-secret");
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.RerankerProvider, "jina");
  assert.equal(setup.body.results.RerankerApiKey, true);
  assert.doesNotMatch(JSON.stringify(setup.body), /jina-secret/);

  // The masked value the form sends back leaves the key as it was.
  await app.json("/api/system/update-env", { json: { RerankerApiKey: "*".repeat(20) } });
  assert.equal(app.deps.settings.value(RERANKER_SETTINGS.apiKey), "jina-secret");
});
