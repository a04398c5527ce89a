// `deno task lectern …`: the `lectern` command (serve, backup, users…) from the server's bundle, bundled again
// first when a source is newer than dist/server/ (a `git pull` never leaves the task running old code), in this
// same process. The client's bundle is `deno task start`'s or `deno task build`'s to make.
import { runServer } from "./build_server.ts";

await runServer();
