import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../../db/schema.ts";
import { installChroma, startChroma } from "../../../scripts/chroma.ts";
import { ProviderError } from "../../errors.ts";
import { silentLogger } from "../../log.ts";
import { startFakeOpenAi } from "../../testing/fake_openai.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../../testing/test_app.ts";
import { openChromaStore } from "./chroma.ts";
import { workspaceNamespace } from "./namespace.ts";
import { openVectorStores, vectorDbOf } from "./registry.ts";

const ci = Deno.env.get("CI") === "true";
let bin: string | null = null;
let reason = "";
try {
  bin = await installChroma();
} catch (error) {
  reason = (error as Error).message;
  if (!ci) console.log(`Vector store switch test ignored: Chroma cannot be installed (${reason})`);
}

function settings(values: Record<string, string>) {
  return { value: (key: string) => values[key] };
}

Deno.test("the vector store registry: LanceDB by default, clear errors for Chroma without an endpoint and for unknown stores", async () => {
  assert.equal(vectorDbOf(settings({})), "lancedb");
  const directory = await Deno.makeTempDir({ prefix: "lectern-registry-" });
  const values: Record<string, string> = {};
  const store = await openVectorStores(settings(values), { lancedbDir: directory, log: silentLogger });
  try {
    assert.equal(await store.count("ws1_x"), 0);
    values.VectorDB = "chroma";
    await assert.rejects(
      () => store.count("ws1_x"),
      (error) => error instanceof ProviderError && /ChromaEndpoint/.test(error.message),
    );
    values.VectorDB = "pinecone";
    values.PineConeKey = "pk";
    await assert.rejects(
      () => store.search("ws1_x", [1], { topK: 1 }),
      /^ProviderError: Pinecone is the chosen vector database, but its PineConeIndex setting is not set\.$/,
    );
    values.VectorDB = "milvus";
    await assert.rejects(() => store.count("ws1_x"), /its MilvusAddress setting is not set\./);
    values.VectorDB = "pgvector";
    await assert.rejects(() => store.search("ws1_x", [1], { topK: 1 }), /pgvector is not available/);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

async function embedInto(app: TestApp, slug: string, name: string, text: string) {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
  });
  const location = upload.body.documents[0].location;
  const added = await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return location;
}

Deno.test({
  name:
    "VectorDB chroma: new embeddings and chat go to Chroma; switching back leaves them there; removals reach both",
  ignore: bin === null && !ci,
  async fn() {
    if (bin === null) throw new Error(`CI=true but Chroma cannot be installed: ${reason}`);
    await using chroma = await startChroma({ bin });
    await using llm = startFakeOpenAi();
    await using app = await createTestApp();
    const saved = await app.json("/api/system/update-env", {
      json: genericOpenAiSettings(llm.baseURL, { VectorDB: "chroma", ChromaEndpoint: chroma.url }),
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));

    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Remote" },
    });
    const slug = created.body.workspace.slug;
    const location = await embedInto(
      app,
      slug,
      "freedonia.txt",
      "The capital of Freedonia is Fredville, on the Blue River.",
    );
    const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
    const namespace = workspaceNamespace(row.id, app.deps.providers.embedder());
    const direct = openChromaStore({ endpoint: chroma.url });
    assert.equal(await direct.count(namespace), 1, "the chunk is in Chroma");
    const vectors = await app.json<{ vectorCount: number }>(`/api/system/system-vectors?slug=${slug}`);
    assert.equal(vectors.body.vectorCount, 1);

    const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "What is the capital of Freedonia?" }),
    });
    const frames = await readFrames(response);
    const closing = frames.find((frame) => frame.type === "textResponseChunk" && frame.close === true);
    const sources = closing?.sources as { title: string; score: number }[];
    assert.equal(sources.length, 1, JSON.stringify(frames));
    assert.equal(sources[0].title, "freedonia.txt");
    assert.ok(sources[0].score > 0.25);

    // Back to LanceDB: it holds nothing for this workspace; Chroma keeps its vectors.
    await app.json("/api/system/update-env", { json: { VectorDB: "lancedb" } });
    assert.equal(await app.deps.vectors.count(namespace), 0);
    assert.equal(await direct.count(namespace), 1);

    // Removing the document while LanceDB is chosen also removes its chunks from Chroma.
    const removed = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { deletes: [location] },
    });
    assert.equal(removed.status, 200);
    await app.close();
    assert.equal(await direct.count(namespace), 0);
  },
});
