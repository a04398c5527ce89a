// The bundled server's entry: scripts/build_server.ts bundles this module (and, through it, server/main.ts and
// every module the server can load) into dist/server/, where `deno task start` and `deno task lectern` run it as
// dist/server/lectern.js. It says where the app's root is and which chunk holds the pages before any of the
// server's modules runs (server/app_root.ts), then runs main.ts: the same command line, worker processes too.
import { declareBundle } from "./app_root.ts";

declareBundle({
  root: new URL("../../", import.meta.url).href,
  entry: import.meta.url,
  pages: () => import("./pages/routes.tsx"),
});
await import("./main.ts");
