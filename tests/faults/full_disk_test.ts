// A full disk during an upload: the real server with STORAGE_DIR on a 12 MB tmpfs of its own, mounted in a user
// and mount namespace (`unshare -rm`), so no privilege is needed where user namespaces are allowed.
import assert from "node:assert/strict";
import { startServerProcess } from "../../server/testing/process.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { STORAGE_FULL_MESSAGE } from "../../server/errors.ts";
import { getJson, libraryDocuments, postJson, uploadTo } from "./helpers.ts";

const MOUNT = (size: string) => `mount -t tmpfs -o size=${size} tmpfs "$STORAGE_DIR" && exec "$@"`;

/** Why a tmpfs cannot be mounted here, or null when it can. */
async function tmpfsUnavailable(): Promise<string | null> {
  const directory = await Deno.makeTempDir({ prefix: "lectern-tmpfs-probe-" });
  try {
    const { code, stderr } = await new Deno.Command("unshare", {
      args: ["-rm", "sh", "-c", MOUNT("1m"), "sh", "true"],
      env: { STORAGE_DIR: directory },
      stdout: "null",
      stderr: "piped",
    }).output();
    return code === 0 ? null : `unshare -rm cannot mount a tmpfs: ${new TextDecoder().decode(stderr).trim()}`;
  } catch (error) {
    return `unshare cannot run: ${(error as Error).message}`;
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}

const unavailable = await tmpfsUnavailable();
const ci = Deno.env.get("CI") === "true";
if (unavailable && !ci) console.log(`Full disk test ignored: ${unavailable}`);

/** Lines of `find` run inside the server's namespaces (the tmpfs is visible there only). */
async function filesInside(pid: number, directory: string): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command("nsenter", {
    args: ["-t", String(pid), "-U", "-m", "--preserve-credentials", "find", directory, "-type", "f"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean);
}

const text = (megabytes: number) => "herons wade in the marsh ".repeat(Math.ceil(megabytes * 2 ** 20 / 25));

Deno.test({
  name:
    "a full disk during an upload: 507 with a sentence, no partial document listed or left on disk, earlier documents still answer, uploads work again once space is freed",
  ignore: unavailable !== null && !ci,
  sanitizeResources: false,
  async fn() {
    if (unavailable) throw new Error(`CI=true but the full disk test cannot run: ${unavailable}`);
    const storage = await Deno.makeTempDir({ prefix: "lectern-faults-" });
    await using llm = startFakeOpenAi();
    try {
      await using server = await startServerProcess({ STORAGE_DIR: storage }, 30_000, {
        wrap: (command) => ["unshare", "-rm", "sh", "-c", MOUNT("12m"), "sh", ...command],
      });
      const api = `${server.url}/api`;
      assert.equal(
        (await postJson(`${api}/system/update-env`, genericOpenAiSettings(llm.baseURL))).status,
        200,
      );
      assert.equal((await postJson(`${api}/workspace/new`, { name: "Disk" })).status, 200);
      const small = await uploadTo(
        server.url,
        "disk",
        "upload-and-embed",
        new File(["Herons wade in shallow water to fish."], "herons.txt"),
      );
      assert.equal(small.status, 200, JSON.stringify(small.body));
      // 3 MB kept twice (the original and the document JSON): about 6 of the 12 MB are used.
      const big = await uploadTo(server.url, "disk", "upload", new File([text(3)], "big.txt"));
      assert.equal(big.status, 200, JSON.stringify(big.body));

      // Bigger than the free space: the original cannot be written. Then one whose original fits but whose
      // document does not: the original already written is removed again.
      for (const [name, megabytes] of [["huge.txt", 7], ["medium.txt", 3]] as const) {
        const full = await uploadTo(server.url, "disk", "upload", new File([text(megabytes)], name));
        assert.equal(full.status, 507, `${name}: ${JSON.stringify(full.body)}`);
        assert.deepEqual(full.body, { success: false, error: STORAGE_FULL_MESSAGE });
      }
      assert.match(STORAGE_FULL_MESSAGE, /^The server's disk is full/);

      // The library lists the two stored documents only, and on disk each has one original and one JSON file.
      const listed = await libraryDocuments(server.url);
      assert.deepEqual(listed.map((document) => document.title).sort(), ["big.txt", "herons.txt"]);
      const files = await filesInside(server.pid, storage);
      assert.equal(
        files.filter((file) => file.startsWith(`${storage}/uploads/`)).length,
        2,
        files.join("\n"),
      );
      assert.equal(
        files.filter((file) => file.startsWith(`${storage}/documents/`)).length,
        2,
        files.join("\n"),
      );
      assert.deepEqual(files.filter((file) => /\.(tmp|partial)$/.test(file)), []);

      // The server keeps answering, and the earlier document is still cited.
      assert.equal(await fetch(`${api}/ping`).then((response) => response.text()), '{"online":true}');
      const chat = await (await fetch(`${api}/workspace/disk/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: "Where do herons wade?" }),
      })).text();
      assert.match(chat, /"type":"finalizeResponseStream"/);
      assert.match(chat, /"title":"herons.txt"/);

      // Removing the big document frees its space, and the upload that failed now works.
      const big_location = listed.find((document) => document.title === "big.txt")!.location;
      const removed = await postJson(`${api}/system/remove-document`, { name: big_location }, "DELETE");
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      const again = await uploadTo(server.url, "disk", "upload", new File([text(3)], "medium.txt"));
      assert.equal(again.status, 200, JSON.stringify(again.body));
      const after = await libraryDocuments(server.url);
      assert.deepEqual(after.map((document) => document.title).sort(), ["herons.txt", "medium.txt"]);
      const workspace = (await getJson(`${api}/workspace/disk`)).workspace;
      assert.equal(workspace.documents.length, 1);
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});
