// `deno task start`: builds the client first when a source is newer than dist/ (scripts/build_client.ts), and
// the server's bundle when a source is newer than dist/server/ (scripts/build_server.ts), then runs the bundled
// server in this same process, so a start pays for one Deno runtime rather than two. When the bundle cannot be
// built, the server runs from its source (server/main.ts), as it did before there was a bundle.
import { pathToFileURL } from "node:url";
import { buildClient, clientIsStale } from "./build_client.ts";
import { buildServer, SERVER_BUNDLE, serverIsStale } from "./build_server.ts";

if (await clientIsStale()) await buildClient();
if (await serverIsStale() && !(await buildServer())) {
  console.error("Running the server from its source.");
  // Computed, so that the source's module graph is not loaded with this script when the bundle runs.
  await import(new URL("../server/main.ts", import.meta.url).href);
} else {
  await import(pathToFileURL(SERVER_BUNDLE).href);
}
