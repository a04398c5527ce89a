import assert from "node:assert/strict";
import { createLogger } from "../../../log.ts";
import { embedLexical } from "../../embedders/native.ts";
import { openLanceStore } from "../lancedb.ts";
import type { VectorRecord } from "../types.ts";

const rows = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index): VectorRecord => ({
    id: `${prefix}-${index}`,
    docId: prefix,
    vector: embedLexical(`${prefix} ${index}`),
    text: `${prefix} chunk ${index}`,
    metadata: { title: `${prefix}.txt` },
  }));

Deno.test("LanceDB store: adds go on while the table is compacted; maintenance runs one at a time per table and never conflicts", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const lines: string[] = [];
  const log = createLogger("debug", (line) => lines.push(line));
  // Maintenance is asked for after every add (no quiet time), so it runs while the next adds commit.
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0, log });
  const maintained = () => lines.filter((line) => line.includes("Vector table maintained")).length;
  try {
    let documents = 0;
    // Adds keep coming until maintenance has run twice meanwhile (a maintenance process takes a runtime start).
    while (documents < 12 || (maintained() < 2 && documents < 400)) {
      await Promise.all([
        store.upsert("ws1", rows(`doc${documents}`, 5)),
        store.upsert("ws1", rows(`doc${documents + 1}`, 5)),
      ]);
      documents += 2;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const duringAdds = maintained();
    await store.idle();
    const failures = lines.filter((line) => / WARN | ERROR /.test(line));
    assert.deepEqual(failures, []);
    assert.ok(duringAdds >= 2, `maintenance ran ${duringAdds} times during ${documents} documents' adds`);
    assert.equal(await store.count("ws1"), documents * 5);
    for (const at of [0, Math.floor(documents / 2), documents - 1]) {
      const [hit] = await store.search("ws1", embedLexical(`doc${at} 3`), { topK: 1 });
      assert.equal(hit.id, `doc${at}-3`);
    }
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
