// LanceDB's native logger reads LANCEDB_LOG when it loads; keep its warnings out of the log by default.
if (!Deno.env.get("LANCEDB_LOG")) Deno.env.set("LANCEDB_LOG", "error");

const { serve } = await import("./serve.ts");
await serve();
