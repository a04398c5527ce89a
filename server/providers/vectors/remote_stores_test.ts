// The six remote vector databases chosen through the settings, each against its loopback fake: a document
// embedded while one is chosen is stored there and answers the chat from there; removals reach every configured
// store once another is chosen.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../../db/schema.ts";
import { startFakeOpenAi } from "../../testing/fake_openai.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../../testing/test_app.ts";
import { workspaceNamespace } from "./namespace.ts";
import { openAstraStore } from "./astra.ts";
import { openMilvusStore } from "./milvus.ts";
import { openPineconeStore } from "./pinecone.ts";
import { openQdrantStore } from "./qdrant.ts";
import { startFakeAstra } from "./testing/fake_astra.ts";
import { startFakeMilvus } from "./testing/fake_milvus.ts";
import { startFakePinecone } from "./testing/fake_pinecone.ts";
import { startFakeQdrant } from "./testing/fake_qdrant.ts";
import { startFakeWeaviate } from "./testing/fake_weaviate.ts";
import type { VectorStore } from "./types.ts";
import { openWeaviateStore } from "./weaviate.ts";
import { openZillizStore } from "./zilliz.ts";

async function embedInto(app: TestApp, slug: string, text: string) {
  const form = new FormData();
  form.append("file", new File([text], "freedonia.txt", { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
  });
  const location = upload.body.documents[0].location;
  const added = await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return location;
}

Deno.test("VectorDB qdrant, pinecone, weaviate, milvus, zilliz and astra: embeddings and chat go to the chosen one; removals reach each", async () => {
  await using llm = startFakeOpenAi();
  await using qdrant = startFakeQdrant({ apiKey: "qk" });
  await using weaviate = startFakeWeaviate({ apiKey: "wk" });
  await using milvus = startFakeMilvus({ token: "root:secret" });
  await using zilliz = startFakeMilvus({ token: "zk" });
  await using astra = startFakeAstra({ token: "AstraCS:t" });
  // Pinecone's control plane comes from the environment (as for Pinecone Local); its fake is started below,
  // once the embedder's dimension is known, on a port chosen now.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const pineconePort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await using app = await createTestApp({
    env: { PINECONE_CONTROL_PLANE: `http://127.0.0.1:${pineconePort}` },
  });
  const saved = await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const dimension =
    (await app.deps.providers.embedder().embedQuery("probe", new AbortController().signal)).length;
  await using pinecone = startFakePinecone({ apiKey: "pk", index: "lectern", dimension, port: pineconePort });

  const cases: { id: string; settings: Record<string, string>; direct: VectorStore }[] = [
    {
      id: "qdrant",
      settings: { QdrantEndpoint: qdrant.url, QdrantApiKey: "qk" },
      direct: openQdrantStore({ endpoint: qdrant.url, apiKey: "qk" }),
    },
    {
      id: "pinecone",
      settings: { PineConeKey: "pk", PineConeIndex: "lectern" },
      direct: openPineconeStore({ apiKey: "pk", index: "lectern", controlPlane: pinecone.url }),
    },
    {
      id: "weaviate",
      settings: { WeaviateEndpoint: weaviate.url, WeaviateApiKey: "wk" },
      direct: openWeaviateStore({ endpoint: weaviate.url, apiKey: "wk" }),
    },
    {
      id: "milvus",
      settings: { MilvusAddress: milvus.url, MilvusUsername: "root", MilvusPassword: "secret" },
      direct: openMilvusStore({ endpoint: milvus.url, token: "root:secret" }),
    },
    {
      id: "zilliz",
      settings: { ZillizEndpoint: zilliz.url, ZillizApiToken: "zk" },
      direct: openZillizStore({ endpoint: zilliz.url, token: "zk" }),
    },
    {
      id: "astra",
      settings: { AstraDBEndpoint: astra.url, AstraDBApplicationToken: "AstraCS:t" },
      direct: openAstraStore({ endpoint: astra.url, token: "AstraCS:t" }),
    },
  ];
  const embedded: { slug: string; location: string; namespace: string; direct: VectorStore }[] = [];
  for (const { id, settings, direct } of cases) {
    const chosen = await app.json("/api/system/update-env", { json: { VectorDB: id, ...settings } });
    assert.equal(chosen.status, 200, `${id}: ${JSON.stringify(chosen.body)}`);
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: id },
    });
    const slug = created.body.workspace.slug;
    const location = await embedInto(app, slug, `The capital of Freedonia is Fredville, says ${id}.`);
    const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
    const namespace = workspaceNamespace(row.id, app.deps.providers.embedder());
    assert.equal(await direct.count(namespace), 1, `${id} holds the chunk`);
    const vectors = await app.json<{ vectorCount: number }>(`/api/system/system-vectors?slug=${slug}`);
    assert.equal(vectors.body.vectorCount, 1, id);

    const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "What is the capital of Freedonia?" }),
    });
    const frames = await readFrames(response);
    const closing = frames.find((frame) => frame.type === "textResponseChunk" && frame.close === true);
    const sources = closing?.sources as { title: string; text: string; score: number }[];
    assert.equal(sources?.length, 1, `${id}: ${JSON.stringify(frames)}`);
    assert.equal(sources[0].title, "freedonia.txt");
    assert.match(sources[0].text, new RegExp(`says ${id}`));
    assert.ok(sources[0].score > 0.25 && sources[0].score <= 1, `${id}: ${sources[0].score}`);
    embedded.push({ slug, location, namespace, direct });
  }

  // Back to LanceDB: each remote store keeps its vectors; removing the documents reaches every one of them.
  await app.json("/api/system/update-env", { json: { VectorDB: "lancedb" } });
  for (const { slug, location, namespace } of embedded) {
    assert.equal(await app.deps.vectors.count(namespace), 0);
    const removed = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { deletes: [location] },
    });
    assert.equal(removed.status, 200);
  }
  await app.close();
  for (const [index, { namespace, direct }] of embedded.entries()) {
    assert.equal(await direct.count(namespace), 0, `${cases[index].id} no longer holds the chunk`);
    await direct.close();
  }
});
