// Development: Vite rebuilds the client on change while the server restarts on server-side change and
// re-reads the client manifest on every page (LECTERN_DEV=1).
import { buildClient } from "./build_client.ts";

await buildClient();
// The first build copied the API docs viewer into dist/static/docs: the watching build keeps it.
const vite = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "npm:vite", "build", "--watch", "--emptyOutDir=false", "--logLevel", "warn"],
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
// The chat widget is its own build (vite.widget.config.ts), watched alongside.
const widget = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "npm:vite",
    "build",
    "--watch",
    "--config",
    "vite.widget.config.ts",
    "--logLevel",
    "warn",
  ],
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
const server = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--watch=server/,shared/,db/", "server/main.ts"],
  env: { LECTERN_DEV: "1" },
  stdout: "inherit",
  stderr: "inherit",
}).spawn();

const stop = () => {
  for (const child of [vite, widget, server]) {
    try {
      child.kill("SIGTERM");
    } catch {
      // already stopped
    }
  }
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
const first = await Promise.race([vite.status, widget.status, server.status]);
stop();
Deno.exit(first.code);
