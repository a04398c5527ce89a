// The entry point, and the `lectern` executable when compiled (`deno compile server/main.ts`): the command line
// is read by server/cli/main.ts; with no command it serves. Worker processes start through it too.
if (Deno.args[0] === "parse-worker") {
  // A parse worker, reading files on stdin (documents/parse_worker.ts); the server is never loaded here.
  const { runParseWorker } = await import("./documents/parse_worker.ts");
  await runParseWorker(Deno.args[1]);
} else if (Deno.args[0] === "vector-worker") {
  // Vector table maintenance in a process of its own (providers/vectors/maintenance_worker.ts).
  const { runVectorWorker } = await import("./providers/vectors/maintenance_worker.ts");
  await runVectorWorker(Deno.args[1]);
} else {
  // LanceDB's native logger reads LANCEDB_LOG when it loads; keep its warnings out of the log by default.
  if (!Deno.env.get("LANCEDB_LOG")) Deno.env.set("LANCEDB_LOG", "error");

  const { defaultNodeEnv, startMemoryTrace, tuneMalloc } = await import("./memory.ts");
  defaultNodeEnv();
  await tuneMalloc();
  const trace = Deno.env.get("MEM_TRACE");
  if (trace) startMemoryTrace(trace, Number(Deno.env.get("MEM_TRACE_MS")) || 1000);
  const { runCli } = await import("./cli/main.ts");
  const code = await runCli(Deno.args);
  if (code !== null) Deno.exit(code);
}
