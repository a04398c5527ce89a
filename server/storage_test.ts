import assert from "node:assert/strict";
import { join } from "node:path";
import { writeAll, writeAtomically, writeFileAtomic } from "./storage.ts";

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
  return found.sort();
}

Deno.test("an atomic write replaces the file whole, with its mode, and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "settings.json");
    await writeFileAtomic(path, "old");
    await writeFileAtomic(path, "new ✓", 0o600);
    assert.equal(await Deno.readTextFile(path), "new ✓");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.deepEqual(await names(dir), ["settings.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a write that fails half-way leaves the old file as it was and removes its temporary file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "document.json");
    await writeFileAtomic(path, "the old content");
    await assert.rejects(
      writeAtomically(path, async (file) => {
        await writeAll(file, new TextEncoder().encode("half of the new"));
        throw new Error("No space left on device");
      }),
      /No space left on device/,
    );
    assert.equal(await Deno.readTextFile(path), "the old content");
    assert.deepEqual(await names(dir), ["document.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
