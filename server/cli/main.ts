// The `lectern` command: server/main.ts hands it the arguments (an executable made by `deno compile` of main.ts is
// `lectern`). Arguments are read with node:util's parseArgs: part of the runtime, so nothing more to compile in,
// and it does all a handful of subcommands with --storage needs (strict options, positionals, short flags).
// Each command loads only the modules it needs. Exit codes: 0 done, 1 failure, 2 usage.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { messageOf } from "../errors.ts";
import { CliError, usage } from "./errors.ts";

export const HELP = `Lectern ${LECTERN_VERSION}: chat with your documents.

Usage: lectern [COMMAND] [--storage DIR]

Commands:
  serve                   Run the server (the default). PORT, HOST and the other settings come from the
                          environment; see the README.
  backup FILE             Write the whole instance (database, vectors, documents, keys) to FILE, a .tar.gz;
                          "-" writes it to standard output. A running server takes it itself, while it serves.
  restore FILE            Replace the storage with the backup in FILE. The server must be stopped; the storage
                          that was there is kept beside it as DIR.before-restore-TIME.
  reset-password [USER]   Give USER (multi-user mode) or the instance (single-user mode) a new password, printed
                          once; --stdin reads it from standard input instead. Signed-in sessions end.
  migrate                 Bring the database up to this version's schema (serve does this on start).
  version                 Print the version.

Options:
  --storage DIR           The storage folder (default: $STORAGE_DIR, else ./storage).
  --stdin                 reset-password: read the new password from standard input.
  -h, --help              Print this help.

Exit codes: 0 done, 1 failed, 2 wrong usage.
`;

const COMMANDS = ["serve", "backup", "restore", "reset-password", "migrate", "version", "help"] as const;
type Command = (typeof COMMANDS)[number];

interface Parsed {
  command: Command;
  operands: string[];
  storage: string;
  stdin: boolean;
}

/** Reads the arguments; a usage error is thrown as a CliError with exit code 2. */
export function parseCommand(
  args: string[],
  env: { get(name: string): string | undefined } = Deno.env,
): Parsed {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        storage: { type: "string" },
        stdin: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    }));
  } catch (error) {
    // parseArgs's messages name the option ("Unknown option '--x'"); a sentence ends with a period.
    throw usage(`${messageOf(error).replace(/\.?$/, ".")} Run lectern --help for the usage.`);
  }
  const [first, ...operands] = positionals;
  let command: Command = "serve";
  if (values.help) command = "help";
  else if (values.version) command = "version";
  else if (first !== undefined) {
    if (!(COMMANDS as readonly string[]).includes(first)) {
      throw usage(`There is no command "${first}". Run lectern --help for the commands.`);
    }
    command = first as Command;
  }
  const expected: Record<Command, [number, number]> = {
    serve: [0, 0],
    backup: [1, 1],
    restore: [1, 1],
    "reset-password": [0, 1],
    migrate: [0, 0],
    version: [0, 0],
    help: [0, 0],
  };
  const [least, most] = expected[command];
  if (values.help || values.version) operands.splice(0);
  if (operands.length < least) {
    throw usage(`lectern ${command} needs a file name: lectern ${command} FILE.`);
  }
  if (operands.length > most) {
    throw usage(`lectern ${command} takes ${most === 0 ? "no" : "one"} argument, not ${operands.length}.`);
  }
  if (values.stdin && command !== "reset-password") throw usage("--stdin goes with reset-password only.");
  if (values.storage !== undefined && values.storage.trim() === "") throw usage("--storage needs a folder.");
  const storage = resolve(values.storage ?? (env.get("STORAGE_DIR") || "./storage"));
  return { command, operands, storage, stdin: Boolean(values.stdin) };
}

/** Runs a command; resolves to the exit code, or null while `serve` keeps running. */
export async function runCli(args: string[]): Promise<number | null> {
  let parsed: Parsed;
  try {
    parsed = parseCommand(args);
  } catch (error) {
    console.error(messageOf(error));
    return error instanceof CliError ? error.exitCode : 2;
  }
  try {
    if (parsed.command === "serve") {
      Deno.env.set("STORAGE_DIR", parsed.storage);
      const { serve } = await import("../serve.ts");
      await serve();
      return null;
    }
    if (parsed.command === "help") {
      console.log(HELP);
      return 0;
    }
    const commands = await import("./commands.ts");
    switch (parsed.command) {
      case "version":
        await commands.version(parsed.storage);
        break;
      case "backup":
        await commands.backup(parsed.storage, parsed.operands[0]);
        break;
      case "restore":
        await commands.restore(parsed.storage, parsed.operands[0]);
        break;
      case "reset-password":
        await commands.resetPasswordCommand(parsed.storage, parsed.operands[0] ?? null, parsed.stdin);
        break;
      case "migrate":
        await commands.migrate(parsed.storage);
        break;
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(error.message);
      return error.exitCode;
    }
    const { BackupError } = await import("../backup/archive.ts");
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Lectern failed: ${messageOf(error).replace(/\.?$/, ".")}`);
    return 1;
  }
}
