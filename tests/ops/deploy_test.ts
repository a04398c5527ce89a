// The deployment files: the systemd unit (systemd-analyze verify), install.sh (bash -n, shellcheck, and a run
// against a fake release served on loopback, installing into a temporary prefix), the Dockerfile and compose file.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const UNIT = join(ROOT, "deploy/lectern.service");
const INSTALL = join(ROOT, "install.sh");

function which(program: string): string | null {
  for (const directory of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const path = join(directory, program);
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not here
    }
  }
  return null;
}

async function run(program: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(program, { args, env, stdout: "piped", stderr: "piped" }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

Deno.test("deploy/lectern.service: a dedicated user, the storage the only place written, hardening, restarts", async () => {
  const unit = await Deno.readTextFile(UNIT);
  for (
    const line of [
      "User=lectern",
      "Environment=STORAGE_DIR=/var/lib/lectern",
      "ExecStart=/usr/local/bin/lectern serve",
      "ProtectSystem=strict",
      "ReadWritePaths=/var/lib/lectern",
      "NoNewPrivileges=yes",
      "PrivateTmp=yes",
      "Restart=on-failure",
      "WantedBy=multi-user.target",
    ]
  ) assert.ok(unit.split("\n").includes(line), line);
});

const systemdAnalyze = which("systemd-analyze");

Deno.test({
  name:
    "systemd-analyze verify passes on the unit, and fails on a broken copy (skipped without systemd-analyze)",
  ignore: systemdAnalyze === null,
  async fn() {
    // verify needs ExecStart's executable: a stand-in in a temporary folder, every other line as shipped.
    const directory = await Deno.makeTempDir({ prefix: "lectern-unit-" });
    try {
      const executable = join(directory, "lectern");
      await Deno.writeTextFile(executable, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      const unit = (await Deno.readTextFile(UNIT)).replace(
        "ExecStart=/usr/local/bin/lectern",
        `ExecStart=${executable}`,
      );
      await Deno.writeTextFile(join(directory, "lectern.service"), unit);
      const verified = await run(systemdAnalyze!, ["verify", join(directory, "lectern.service")]);
      assert.equal(verified.code, 0, verified.stderr);
      assert.ok(!verified.stderr.includes("lectern.service:"), verified.stderr);

      await Deno.mkdir(join(directory, "broken"));
      await Deno.writeTextFile(
        join(directory, "broken/lectern.service"),
        unit.replace("ProtectSystem=strict", "ProtectSystem=very"),
      );
      const broken = await run(systemdAnalyze!, ["verify", join(directory, "broken/lectern.service")]);
      assert.match(broken.stderr, /lectern\.service:\d+: Failed to parse/);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});
if (systemdAnalyze === null) {
  console.log("systemd-analyze is not installed: the unit's verify test is skipped.");
}

Deno.test("install.sh parses (bash -n) and shellcheck finds nothing (when shellcheck is installed)", async () => {
  const parsed = await run("bash", ["-n", INSTALL]);
  assert.equal(parsed.code, 0, parsed.stderr);
  const shellcheck = which("shellcheck");
  if (!shellcheck) {
    console.log("shellcheck is not installed: only bash -n checked install.sh.");
    return;
  }
  const checked = await run(shellcheck, [INSTALL]);
  assert.equal(checked.code, 0, checked.stdout);
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

Deno.test("install.sh installs from a release served on loopback: checksums checked, a mismatch installs nothing", async () => {
  const arch = Deno.build.arch === "aarch64" ? "aarch64" : "x86_64";
  const os = Deno.build.os === "darwin" ? "apple-darwin" : "unknown-linux-gnu";
  const asset = `lectern-${arch}-${os}`;
  const binary = new TextEncoder().encode('#!/bin/sh\necho "Lectern from the fake release $*"\n');
  const unit = await Deno.readFile(UNIT);
  let sums = `${sha256(binary)}  ${asset}\n${sha256(unit)}  lectern.service\n`;
  const served: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const name = new URL(request.url).pathname.replace("/download/", "");
    served.push(name);
    if (name === asset) return new Response(binary);
    if (name === "lectern.service") return new Response(unit);
    if (name === "SHA256SUMS") return new Response(sums);
    return new Response("Not Found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}/download`;
  const prefix = await Deno.makeTempDir({ prefix: "lectern-install-" });
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: prefix };
  try {
    const args = [
      INSTALL,
      "--base-url",
      base,
      "--prefix",
      prefix,
      "--no-systemd",
      "--storage",
      "/srv/lectern",
    ];
    const installed = await run("bash", args, env);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /Checksums match\./);
    assert.deepEqual(served.sort(), [asset, "SHA256SUMS", "lectern.service"].sort());
    const path = join(prefix, "usr/local/bin/lectern");
    assert.deepEqual(await Deno.readFile(path), binary);
    assert.equal((await Deno.stat(path)).mode! & 0o111, 0o111, "executable");
    assert.match((await run(path, ["version"])).stdout, /Lectern from the fake release version/);
    if (os === "unknown-linux-gnu") {
      const written = await Deno.readTextFile(join(prefix, "etc/systemd/system/lectern.service"));
      assert.ok(written.includes("ReadWritePaths=/srv/lectern"));
      assert.ok(written.includes("Environment=STORAGE_DIR=/srv/lectern"));
    }

    // A binary whose checksum does not match: refused, nothing installed.
    await Deno.remove(join(prefix, "usr"), { recursive: true });
    sums = `${"0".repeat(64)}  ${asset}\n${sha256(unit)}  lectern.service\n`;
    const refused = await run("bash", args, env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /The checksum of lectern-.* does not match the release's SHA256SUMS/);
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);

    const unknown = await run("bash", [INSTALL, "--frobnicate"], env);
    assert.equal(unknown.code, 2);
  } finally {
    await server.shutdown();
    await Deno.remove(prefix, { recursive: true });
  }
});

Deno.test("the Dockerfile is multi-stage, runs as a user with a health check and the lectern entry; compose has Ollama", async () => {
  const dockerfile = await Deno.readTextFile(join(ROOT, "Dockerfile"));
  assert.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, "multi-stage");
  assert.match(dockerfile, /^USER (?!root)\S+/m);
  assert.match(dockerfile, /^HEALTHCHECK /m);
  assert.match(dockerfile, /^ENTRYPOINT \["lectern"\]/m);
  // As the start and lectern tasks run it (bench/deno_task_test.ts): no V8 code cache (issue 21: idle memory).
  assert.match(dockerfile, /exec deno run [^\n]*--no-code-cache[^\n]*bundle_main\.js/);
  const compose = await Deno.readTextFile(join(ROOT, "deploy/compose.yaml"));
  assert.match(compose, /^ {2}ollama:/m);
  assert.match(compose, /^ {2}lectern:/m);
  assert.match(compose, /OLLAMA_BASE_PATH|OllamaLLMBasePath/);
});
