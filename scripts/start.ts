// `deno task start`: builds the client first when a source is newer than dist/ (scripts/build_client.ts), then
// runs the server in this same process, so a start pays for one Deno runtime rather than two.
import { buildClient, clientIsStale } from "./build_client.ts";

if (await clientIsStale()) await buildClient();
await import("../server/main.ts");
