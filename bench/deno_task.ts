// A deno.json task's command line, as the benchmarks read it to start the server as the task does.

/** A task's command split: the environment it sets (`NAME=value` words before `deno`), and `deno`'s arguments. */
export function parseDenoTask(task: string): { env: Record<string, string>; args: string[] } {
  const words = task.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let word: string | undefined;
  while ((word = words.shift()) !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
    const equals = word.indexOf("=");
    env[word.slice(0, equals)] = word.slice(equals + 1);
  }
  if (word !== "deno") throw new Error(`The task does not run deno: ${task}`);
  return { env, args: words };
}
