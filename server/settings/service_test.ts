import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../db/client.ts";
import { loadInstanceKeys } from "../auth/keys.ts";
import { SettingsService } from "./service.ts";

Deno.test("settings: a replica reads again what another replica saved in the shared database, secrets included", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-settings-" });
  const first = await openDatabase(join(directory, "lectern.db"));
  const second = await openDatabase(join(directory, "lectern.db"));
  try {
    await Deno.mkdir(join(directory, "keys"));
    const keys = await loadInstanceKeys(join(directory, "keys"));
    const a = await SettingsService.load(first.db, keys.settings, {});
    const b = await SettingsService.load(second.db, keys.settings, {});
    await a.update({ VectorDB: "chroma", ChromaEndpoint: "http://127.0.0.1:8000", ChromaApiKey: "sesame" });
    await a.setLabels({ custom_label: "one" });
    assert.notEqual(b.value("VectorDB"), "chroma", "b still holds what it read at start");
    assert.equal(await b.refresh(), true);
    assert.equal(b.value("VectorDB"), "chroma");
    assert.equal(b.value("ChromaApiKey"), "sesame");
    assert.equal(b.label("custom_label"), "one");
    assert.equal(await b.refresh(), false, "nothing new");

    await a.setLabels({ custom_label: null });
    assert.equal(await b.refresh(), true);
    assert.equal(b.label("custom_label"), undefined, "a removed setting goes too");
  } finally {
    first.close();
    second.close();
    await Deno.remove(directory, { recursive: true });
  }
});
