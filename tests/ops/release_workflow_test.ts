// .github/workflows/release.yml: on a tag v*, one build per release target (scripts/compile.ts's TARGETS, the
// assets install.sh downloads), each on a runner of its platform, each executable started until /api/ping
// answers; then SHA256SUMS made over what install.sh verifies and attached to the release with the executables.
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { TARGETS } from "../../scripts/compile.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const WORKFLOW = join(ROOT, ".github/workflows/release.yml");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  "runs-on": string;
  needs?: string | string[];
  strategy?: { matrix: { include: Record<string, string>[] } };
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
}

const workflow = parse(await Deno.readTextFile(WORKFLOW)) as Workflow;
const installSh = await Deno.readTextFile(join(ROOT, "install.sh"));

/** The assets install.sh can ask for: `lectern-${arch}-${os}` over its detection, less the refused pairs. */
function installShAssets(): string[] {
  const section = (variable: string) => [...installSh.matchAll(new RegExp(`\\b${variable}="([^"$]+)"`, "g"))];
  const oses = section("os").map((match) => match[1]);
  const arches = section("arch").map((match) => match[1]);
  assert.deepEqual(oses.sort(), ["apple-darwin", "unknown-linux-gnu"]);
  assert.deepEqual(arches.sort(), ["aarch64", "x86_64"]);
  assert.match(installSh, /ASSET="lectern-\$\{arch\}-\$\{os\}"/);
  const refused = [...installSh.matchAll(/\[ "\$os" = "([^"]+)" \] && \[ "\$arch" = "([^"]+)" \]/g)].map((
    match,
  ) => `${match[2]}-${match[1]}`);
  return oses.flatMap((os) => arches.map((arch) => `${arch}-${os}`)).filter((pair) => !refused.includes(pair))
    .map((pair) => `lectern-${pair}`).sort();
}

/** The runner image's platform, as a target's arch and system. */
function runnerPlatform(runner: string): { arch: string; os: string } {
  if (/^ubuntu-.*-arm$/.test(runner)) return { arch: "aarch64", os: "linux" };
  if (/^ubuntu-/.test(runner)) return { arch: "x86_64", os: "linux" };
  // GitHub's macos-14 and later (and macos-latest) are Apple silicon; macos-13 was the last Intel image.
  const mac = runner.match(/^macos-(\d+|latest)$/);
  if (mac) return { arch: mac[1] === "latest" || Number(mac[1]) >= 14 ? "aarch64" : "x86_64", os: "darwin" };
  throw new Error(`Unknown runner ${runner}.`);
}

Deno.test("release.yml runs on a pushed v* tag and builds exactly compile.ts's targets, the assets install.sh fetches", () => {
  assert.deepEqual(workflow.on.push.tags, ["v*"]);
  const build = workflow.jobs.build;
  const matrix = build.strategy!.matrix.include;
  const targets = matrix.map((entry) => entry.target);
  assert.deepEqual([...targets].sort(), [...TARGETS].sort());
  assert.deepEqual(targets.map((target) => `lectern-${target}`).sort(), installShAssets());
  assert.equal(build["runs-on"], "${{ matrix.runner }}");
  assert.equal(build.env?.ASSET, "lectern-${{ matrix.target }}");
  for (const entry of matrix) {
    // Each target builds on its own platform: the native addons in node_modules are the runner's.
    const { arch, os } = runnerPlatform(entry.runner);
    assert.ok(entry.target.startsWith(`${arch}-`), `${entry.target} on ${entry.runner}`);
    assert.ok(entry.target.includes(`-${os}`), `${entry.target} on ${entry.runner}`);
  }
});

Deno.test("each build installs its platform's packages, compiles its target and checks that /api/ping answers 200", () => {
  const steps = workflow.jobs.build.steps;
  const index = (predicate: (step: Step) => boolean, what: string) => {
    const found = steps.findIndex(predicate);
    assert.ok(found >= 0, what);
    return found;
  };
  const setup = index((step) => step.uses?.startsWith("denoland/setup-deno@") ?? false, "sets up Deno");
  const version = Deno.version.deno;
  assert.equal(steps[setup].with?.["deno-version"], `v${version}`, "the Deno the project is tested with");
  const install = index((step) => /^deno install --frozen$/m.test(step.run ?? ""), "deno install --frozen");
  const compile = index(
    (step) =>
      (step.run ?? "").includes(
        "deno task compile --target=${{ matrix.target }} --output=out/${{ env.ASSET }}",
      ),
    "deno task compile for the matrix target",
  );
  const ping = index((step) => (step.run ?? "").includes("/api/ping"), "a /api/ping check");
  const upload = index((step) => step.uses?.startsWith("actions/upload-artifact@") ?? false, "an upload");
  assert.ok(setup < install && install < compile && compile < ping && ping < upload, "in this order");

  const script = steps[ping].run!;
  assert.match(script, /"\.\/out\/\$ASSET" serve --storage "\$storage"/, "starts the compiled executable");
  assert.match(script, /storage="\$\(mktemp -d\)"/, "on a temporary storage");
  assert.match(script, /127\.0\.0\.1/);
  assert.match(script, /\[ "\$status" = 200 \]/, "waits for a 200");
  assert.match(script, /exit 1/, "fails the job otherwise");
  assert.equal(steps[upload].with?.path, "out/${{ env.ASSET }}");
  assert.equal(steps[upload].with?.name, "${{ env.ASSET }}");
});

Deno.test("the release job makes SHA256SUMS that install.sh verifies and attaches it with the executables", async () => {
  const release = workflow.jobs.release;
  assert.equal(release.needs, "build");
  assert.equal(release.permissions?.contents, "write");
  const download = release.steps.find((step) => step.uses?.startsWith("actions/download-artifact@"));
  assert.deepEqual(download?.with, { pattern: "lectern-*", path: "release", "merge-multiple": true });
  const checksums = release.steps.find((step) => (step.run ?? "").includes("sha256sum"));
  assert.ok(checksums, "a checksum step");
  const attach = release.steps.find((step) => (step.run ?? "").includes("gh release create"));
  assert.ok(attach, "an attach step");
  for (const file of ["lectern-*", "lectern.service", "install.sh", "SHA256SUMS"]) {
    assert.ok(attach.run!.includes(` ${file}`), `attaches ${file}`);
  }
  assert.ok(
    release.steps.indexOf(checksums) < release.steps.indexOf(attach),
    "the checksums exist before they are attached",
  );

  // Run the checksum step on stand-ins laid out as download-artifact leaves them, then verify every file
  // install.sh downloads the way install.sh does (its awk over SHA256SUMS).
  const work = await Deno.makeTempDir({ prefix: "lectern-release-" });
  try {
    await Deno.mkdir(join(work, "release"));
    await Deno.mkdir(join(work, "deploy"));
    await Deno.copyFile(join(ROOT, "deploy/lectern.service"), join(work, "deploy/lectern.service"));
    await Deno.copyFile(join(ROOT, "install.sh"), join(work, "install.sh"));
    for (const target of TARGETS) {
      await Deno.writeTextFile(join(work, "release", `lectern-${target}`), target);
    }
    const run = await new Deno.Command("bash", {
      args: ["-c", checksums.run!],
      cwd: work,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    const sums = await Deno.readTextFile(join(work, "release/SHA256SUMS"));
    const verify = installSh.match(/expected="\$\(awk -v name="\$1" '([^']+)' "\$3" \| head -n 1\)"/);
    assert.ok(verify, "install.sh's checksum lookup");
    const program: string = verify[1];
    for (const name of [...installShAssets(), "lectern.service", "install.sh"]) {
      const lookup: Deno.CommandOutput = await new Deno.Command("awk", {
        args: ["-v", `name=${name}`, program, join(work, "release/SHA256SUMS")],
        stdout: "piped",
      }).output();
      const expected: string = new TextDecoder().decode(lookup.stdout).trim().split("\n")[0];
      const bytes = await Deno.readFile(join(work, "release", name));
      const actual = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
        .map((byte) => byte.toString(16).padStart(2, "0")).join("");
      assert.equal(expected, actual, `${name} in SHA256SUMS:\n${sums}`);
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
