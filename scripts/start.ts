// `deno task start`: builds the client first when a source is newer than dist/ (scripts/build_client.ts), and
// the server's bundle when a source is newer than dist/server/ (scripts/build_server.ts), then runs the bundled
// server in this same process, so a start pays for one Deno runtime rather than two. When the bundle cannot be
// built, the server runs from its source (server/main.ts), as it did before there was a bundle.
import { buildClient, clientIsStale } from "./build_client.ts";
import { runServer } from "./build_server.ts";

if (await clientIsStale()) await buildClient();
await runServer();
