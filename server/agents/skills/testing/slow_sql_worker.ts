// Tests: the SQL worker, slow to start (as on a busy machine): it loads the real worker after a pause.
await new Promise((resolve) => setTimeout(resolve, 1500));
await import("../sql_worker.ts");
