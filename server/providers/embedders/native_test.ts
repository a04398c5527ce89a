import assert from "node:assert/strict";
import { embedLexical, NATIVE_DIMENSIONS, nativeEmbedder } from "./native.ts";

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0);

Deno.test("embedLexical() is deterministic, unit length and of the declared size", () => {
  const first = embedLexical("The capital of Freedonia is Fredville.");
  assert.equal(first.length, NATIVE_DIMENSIONS);
  assert.deepEqual(first, embedLexical("The capital of Freedonia is Fredville."));
  assert.ok(Math.abs(cosine(first, first) - 1) < 1e-9);
  assert.ok(
    Math.abs(cosine(embedLexical(""), embedLexical("")) - 1) < 1e-9,
    "empty text still has unit length",
  );
});

Deno.test("embedLexical() ranks related text above the default threshold and unrelated text below it", () => {
  const document = embedLexical(
    "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River. It exports cheese.",
  );
  const related = cosine(document, embedLexical("What is the capital of Freedonia?"));
  const morphology = cosine(document, embedLexical("capitals of freedonian rivers"));
  const unrelated = cosine(document, embedLexical("How do I bake sourdough bread?"));
  assert.ok(related > 0.4, `related ${related}`);
  assert.ok(morphology > 0.25, `morphology ${morphology}`);
  assert.ok(unrelated < 0.25, `unrelated ${unrelated}`);
  assert.ok(related > morphology && morphology > unrelated);
});

Deno.test("nativeEmbedder() embeds a batch in order", async () => {
  const embedder = nativeEmbedder();
  const vectors = await embedder.embed(["one", "two"]);
  assert.deepEqual(vectors, [embedLexical("one"), embedLexical("two")]);
  assert.equal(embedder.maxChunkLength, 1000);
});
