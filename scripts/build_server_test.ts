import assert from "node:assert/strict";
import {
  buildServer,
  bundleArgs,
  keepLastBuilds,
  replaceRequireShim,
  SERVER_DIST,
  serverIsStale,
} from "./build_server.ts";

const names = (dir: string) => [...Deno.readDirSync(dir)].map((file) => file.name).sort();

Deno.test("a rebuild keeps the chunks of the last three builds, so a running server still loads its own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-builds-" });
  try {
    const build = async (files: string[]) => {
      for (const file of files) await Deno.writeTextFile(`${dir}/${file}`, file);
      await keepLastBuilds(dir, files);
    };
    await build(["bundle_main.js", "pages-A.js", "chunk-1.js"]);
    await build(["bundle_main.js", "pages-B.js", "chunk-1.js"]);
    await build(["bundle_main.js", "pages-C.js", "chunk-2.js"]);
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-1.js",
      "chunk-2.js",
      "pages-A.js",
      "pages-B.js",
      "pages-C.js",
    ]);
    await build(["bundle_main.js", "pages-D.js", "chunk-2.js"]);
    // The first build is now four builds old: its own files go, the ones a later build shares stay.
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-1.js",
      "chunk-2.js",
      "pages-B.js",
      "pages-C.js",
      "pages-D.js",
    ]);
    await build(["bundle_main.js", "pages-E.js", "chunk-2.js"]);
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-2.js",
      "pages-C.js",
      "pages-D.js",
      "pages-E.js",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unreadable record of builds keeps only the new build's files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-builds-" });
  try {
    await Deno.writeTextFile(`${dir}/builds.json`, "not json");
    await Deno.writeTextFile(`${dir}/stale-X.js`, "");
    await Deno.writeTextFile(`${dir}/bundle_main.js`, "");
    await keepLastBuilds(dir, ["bundle_main.js"]);
    assert.deepEqual(names(dir), ["builds.json", "bundle_main.js"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Bundles `dir`/fixture.ts into `dir`/out with the server's own bundle arguments. */
async function bundleFixture(dir: string): Promise<void> {
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(`${dir}/out`, `${dir}/fixture.ts`),
    cwd: new URL("..", import.meta.url),
    stderr: "piped",
  }).output();
  assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
}

Deno.test("the bundle is minified with the functions' and classes' names kept, as stack traces show them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-minify-" });
  try {
    await Deno.writeTextFile(
      `${dir}/fixture.ts`,
      `// A comment that the minified bundle leaves out.
export class LongDescriptiveClassName {
  describe(): string {
    return this.constructor.name;
  }
}
function namedHelperFunction(value: number): number {
  if (value > 1) throw new Error("fixture");
  return value;
}
const longLocalVariableName = new LongDescriptiveClassName();
let stack = "";
try {
  namedHelperFunction(2);
} catch (error) {
  stack = (error as Error).stack ?? "";
}
console.log(JSON.stringify({ name: longLocalVariableName.describe(), fn: namedHelperFunction.name, stack }));
`,
    );
    await bundleFixture(dir);
    const code = await Deno.readTextFile(`${dir}/out/fixture.js`);
    assert.ok(!code.includes("leaves out"), "comments are dropped");
    assert.ok(!code.includes("longLocalVariableName"), "local names are shortened");
    const ran = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", `${dir}/out/fixture.js`],
      stdout: "piped",
    }).output();
    const shown = JSON.parse(new TextDecoder().decode(ran.stdout));
    assert.equal(shown.name, "LongDescriptiveClassName");
    assert.equal(shown.fn, "namedHelperFunction");
    assert.match(shown.stack, /at namedHelperFunction /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a minified bundle's CommonJS modules still require Node's modules (React's server renderer does)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-minify-require-" });
  try {
    await Deno.writeTextFile(
      `${dir}/dep.cjs`,
      `module.exports = require("node:util").format("%s!", "required");\n`,
    );
    // A class whose name is kept: its helper shares a declaration with the stand-in, which Deno then leaves.
    await Deno.writeTextFile(
      `${dir}/fixture.ts`,
      `import text from "./dep.cjs";\nexport class NamedThing {\n  text() {\n    return text;\n  }\n}\n` +
        `console.log(new NamedThing().text());\n`,
    );
    await bundleFixture(dir);
    const run = async () => {
      const ran = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", `${dir}/out/fixture.js`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      return new TextDecoder().decode(ran.stdout) + new TextDecoder().decode(ran.stderr);
    };
    // As esbuild writes it, the require fails: what the build replaces.
    assert.match(await run(), /Dynamic require of "node:util" is not supported/);
    assert.equal(await replaceRequireShim(`${dir}/out`), 1);
    assert.equal((await run()).trim(), "required!");
    assert.equal(await replaceRequireShim(`${dir}/out`), 0, "nothing is left to replace");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a require stand-in in another form fails the build rather than ship", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-minify-require-" });
  try {
    await Deno.writeTextFile(
      `${dir}/chunk.js`,
      `throw Error('Dynamic require of "'+a+'" is not supported');\n`,
    );
    await assert.rejects(() => replaceRequireShim(dir), /not in the form this build replaces/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** zod's locales each end in a function returning `{localeError: …}`: how many a bundle's files hold. */
const ZOD_LOCALE = /\{localeError:/g;
const zodLocales = (code: string) => code.match(ZOD_LOCALE)?.length ?? 0;

Deno.test("zod bundled as the server bundles it: its English messages, and no other locale", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-zod-locales-" });
  try {
    // As the server's modules import zod (a namespace import), with a schema of each common kind.
    await Deno.writeTextFile(
      `${dir}/fixture.ts`,
      `import * as z from "zod";\n` +
        `const checks = [z.string().safeParse(1), z.number().min(3).safeParse(1), z.email().safeParse("a"),\n` +
        `  z.object({ a: z.boolean() }).safeParse({}), z.enum(["x", "y"]).safeParse("z"), z.array(z.string()).max(1).safeParse(["a", "b"])];\n` +
        `console.log(JSON.stringify(checks.map((check) => check.error?.issues[0].message)));\n`,
    );
    await bundleFixture(dir);
    let locales = 0;
    for (const file of Deno.readDirSync(`${dir}/out`)) {
      locales += zodLocales(Deno.readTextFileSync(`${dir}/out/${file.name}`));
    }
    assert.equal(locales, 1, "zod's English locale alone");
    const ran = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", `${dir}/out/fixture.js`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(ran.code, 0, new TextDecoder().decode(ran.stderr));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(ran.stdout)), [
      "Invalid input: expected string, received number",
      "Too small: expected number to be >=3",
      "Invalid email address",
      "Invalid input: expected boolean, received undefined",
      'Invalid option: expected one of "x"|"y"',
      "Too big: expected array to have <=1 items",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "the server's bundle holds zod's English locale only (a module importing zod's namespace whole brings 60 back)",
  ignore: Deno.build.os === "windows",
  async fn() {
    if (await serverIsStale()) assert.ok(await buildServer(), "The server bundle could not be built.");
    const [files] = JSON.parse(await Deno.readTextFile(`${SERVER_DIST}/builds.json`)) as string[][];
    let locales = 0;
    for (const file of files) {
      if (file.endsWith(".js")) locales += zodLocales(await Deno.readTextFile(`${SERVER_DIST}/${file}`));
    }
    assert.equal(
      locales,
      1,
      'zod\'s other locales are bundled: a module imports { z } from "zod" (import * as z from "zod" instead), ' +
        'or one imports "zod/v4/core" (its own namespace holds them all)',
    );
  },
});
