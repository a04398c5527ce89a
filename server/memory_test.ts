import assert from "node:assert/strict";
import { defaultNodeEnv, freeBytes, mallocSettings, tuneMalloc } from "./memory.ts";
import { startServerProcess } from "./testing/process.ts";

function fakeEnv(values: Record<string, string>) {
  const env = new Map(Object.entries(values));
  return {
    values: env,
    get: (name: string) => env.get(name),
    set: (name: string, value: string) => void env.set(name, value),
  };
}

Deno.test("malloc: two arenas, blocks from 256 KiB mapped apart, a 1 MiB trim threshold; an operator's settings win", () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  // mallopt's M_ARENA_MAX, M_MMAP_THRESHOLD and M_TRIM_THRESHOLD.
  assert.deepEqual(mallocSettings(env({})), [[-8, 2], [-3, 262_144], [-1, 1_048_576]]);
  assert.deepEqual(mallocSettings(env({ MALLOC_ARENA_MAX: "4", MALLOC_TRIM_THRESHOLD_: "0" })), [[
    -3,
    262_144,
  ]]);
  assert.deepEqual(
    mallocSettings(env({ GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=1" })),
    [[-1, 1_048_576]],
  );
});

Deno.test({
  name: "malloc: glibc's mallopt takes every setting (called from Deno's blocking pool)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    let glibc = true;
    try {
      Deno.dlopen("libc.so.6", { mallopt: { parameters: ["i32", "i32"], result: "i32", nonblocking: true } })
        .close();
    } catch {
      glibc = false;
    }
    assert.equal(await tuneMalloc(), glibc ? mallocSettings().length : 0);
  },
});

Deno.test("NODE_ENV defaults to production, so React renders pages with its production build", () => {
  const env = fakeEnv({});
  assert.equal(defaultNodeEnv(env), "production");
  assert.equal(env.values.get("NODE_ENV"), "production");
});

Deno.test("an operator's NODE_ENV is kept, and LECTERN_DEV keeps React's development build", () => {
  const operator = fakeEnv({ NODE_ENV: "development" });
  assert.equal(defaultNodeEnv(operator), null);
  assert.equal(operator.values.get("NODE_ENV"), "development");
  for (const dev of ["1", "true"]) {
    const env = fakeEnv({ LECTERN_DEV: dev });
    assert.equal(defaultNodeEnv(env), null);
    assert.equal(env.values.get("NODE_ENV"), undefined);
  }
  const off = fakeEnv({ LECTERN_DEV: "0" });
  assert.equal(defaultNodeEnv(off), "production");
});

Deno.test({
  name: "a server process (NODE_ENV unset) renders its first pages with React loaded on first use",
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-node-env-" });
    try {
      await using server = await startServerProcess({ STORAGE_DIR: storage }, 180_000);
      const created = await (await fetch(`${server.url}/api/workspace/new`, {
        method: "POST",
        body: JSON.stringify({ name: "Herons" }),
      })).json();
      assert.equal(created.workspace.slug, "herons");
      const pages: [string, RegExp][] = [
        ["/", /<title>Home \| Lectern<\/title>/],
        ["/workspace/herons", /<title>Workspace \| Lectern<\/title>/],
      ];
      for (const [path, expected] of pages) {
        const response = await fetch(`${server.url}${path}`);
        const html = await response.text();
        assert.equal(response.status, 200, `${path}: ${html.slice(0, 300)}`);
        assert.match(html, /^<!DOCTYPE html><html lang="en"/, path);
        assert.match(html, expected, path);
      }
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});

Deno.test("freeBytes frees a buffer a view spans whole, and leaves a part of a larger one, and nothing, alone", () => {
  const whole = new Uint8Array(1024);
  assert.equal(freeBytes(whole), true);
  assert.equal(whole.buffer.detached, true);
  assert.equal(whole.length, 0);
  assert.equal(freeBytes(whole), false, "once");
  const larger = new Uint8Array(1024);
  assert.equal(freeBytes(larger.subarray(0, 512)), false);
  assert.equal(freeBytes(larger.subarray(512)), false);
  assert.equal(larger.buffer.detached, false);
  assert.equal(freeBytes(null), false);
  assert.equal(freeBytes(new Uint8Array(0)), false);
  const shared = new Uint8Array(new SharedArrayBuffer(64));
  assert.equal(freeBytes(shared), false);
  assert.equal(shared.length, 64);
  const floats = new Float32Array(16);
  assert.equal(freeBytes(floats), true, "any typed array");
});
