import assert from "node:assert/strict";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { splitText } from "./chunker.ts";

/** LangChain's splitter, as the reference runs it, with the same filter of blank chunks. */
async function reference(text: string, chunkSize: number, chunkOverlap: number): Promise<string[]> {
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap });
  const originalWarn = console.warn;
  console.warn = () => {};
  try {
    return (await splitter.splitText(text)).filter((chunk) => chunk.trim().length > 0);
  } finally {
    console.warn = originalWarn;
  }
}

/** A text of words, long words, lines, paragraphs, runs of blank lines and spaces, from a seeded generator. */
function sampleText(seed: number, length: number): string {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const roll = next();
    const part = roll < 0.6
      ? "word".slice(0, 1 + Math.floor(next() * 4)) + "abcdefghij".slice(0, Math.floor(next() * 10))
      : roll < 0.7
      ? "x".repeat(Math.floor(next() * 300))
      : roll < 0.8
      ? "\n"
      : roll < 0.87
      ? "\n\n"
      : roll < 0.9
      ? "\n\n\n \n"
      : roll < 0.95
      ? "  "
      : "é😀ß";
    parts.push(part, " ");
    size += part.length + 1;
  }
  return parts.join("");
}

Deno.test("the splitter cuts texts exactly as LangChain's recursive character splitter does", async () => {
  const cases: [number, number][] = [[1000, 20], [200, 0], [100, 50], [37, 36], [1, 0], [8000, 200]];
  let compared = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const text = sampleText(seed, 500 + seed * 1500);
    for (const [size, overlap] of cases) {
      assert.deepEqual(
        await splitText(text, { chunkSize: size, chunkOverlap: overlap }),
        await reference(text, size, overlap),
        `seed ${seed}, size ${size}, overlap ${overlap}`,
      );
      compared++;
    }
  }
  for (const text of ["", " ", "\n\n\n", "one", "a\n\nb", "x".repeat(2500), "word ".repeat(900)]) {
    assert.deepEqual(
      await splitText(text, { chunkSize: 1000, chunkOverlap: 20 }),
      await reference(text, 1000, 20),
    );
    compared++;
  }
  assert.equal(compared, 79);
});

Deno.test("a book is split in one pass: many chunks, none longer than the size", async () => {
  const text = sampleText(99, 2_000_000);
  const chunks = await splitText(text, { chunkSize: 1000, chunkOverlap: 20 });
  assert.ok(chunks.length > 2000, `${chunks.length} chunks`);
  assert.ok(chunks.every((chunk) => chunk.length <= 1000));
});
