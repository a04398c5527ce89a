// Builds the client, then compiles Lectern into one executable with the client bundle embedded (migrations
// are code, so they travel inside). `deno compile` needs the denort runtime for the target: set DENORT_BIN to
// a denort binary, or have it in the Deno cache ($DENO_DIR/dl/release/v<version>/denort-<target>.zip).
import { buildClient } from "./build_client.ts";

const output = Deno.args.find((arg) => arg.startsWith("--output="))?.slice("--output=".length) ?? "lectern";
const target = Deno.args.find((arg) => arg.startsWith("--target="))?.slice("--target=".length);

function denortAvailable(): string | null {
  const explicit = Deno.env.get("DENORT_BIN");
  if (explicit) {
    try {
      if (Deno.statSync(explicit).isFile) return explicit;
    } catch {
      console.error(`DENORT_BIN points to ${explicit}, which does not exist.`);
      Deno.exit(1);
    }
  }
  const home = Deno.env.get("HOME") ?? "";
  const denoDir = Deno.env.get("DENO_DIR") ?? `${home}/.cache/deno`;
  const version = Deno.version.deno;
  const triple = target ?? Deno.build.target;
  const cached = `${denoDir}/dl/release/v${version}/denort-${triple}.zip`;
  try {
    if (Deno.statSync(cached).isFile) return cached;
  } catch {
    // not cached
  }
  return null;
}

const runtime = denortAvailable();
if (!runtime) {
  console.warn(
    "No denort runtime found (DENORT_BIN unset and none in the Deno cache); deno compile will try to download it.",
  );
}

await buildClient();
const args = [
  "compile",
  "-A",
  "--include",
  "dist/static",
  // Loaded with a computed specifier on the first page request (server/app.tsx).
  "--include",
  "server/pages/routes.tsx",
  "--output",
  output,
  ...(target ? ["--target", target] : []),
  "server/main.ts",
];
const { code } = await new Deno.Command(Deno.execPath(), { args, stdout: "inherit", stderr: "inherit" })
  .output();
if (code !== 0) {
  console.error(
    "deno compile failed. Without network access it needs DENORT_BIN or a cached denort runtime.",
  );
  Deno.exit(code);
}
console.log(`Wrote ${output}`);
