// Every error message Lectern writes itself, listed from the sources, in one style: a sentence that starts with a
// capital letter, a quoted value or the name of a request field, and ends with a period. The reference's own
// texts, which clients of its API match, are kept as they are (REFERENCE_TEXTS).
import assert from "node:assert/strict";
import { join, relative } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;

/** Texts of the reference's API kept word for word (docs/api-compat.md#status-codes-and-error-bodies). */
const REFERENCE_TEXTS = new Set([
  "User not found",
  "No updates provided",
  "Invalid provider for custom models",
  "Value cannot be empty",
  "name cannot be null",
  "Variable not found",
  "System prompt variable not found or could not be deleted",
  "Missing filename",
  "File not found",
  "Workspace not found",
  "Thread not found",
  "Pin status updated successfully",
  "Folder removed successfully",
  "Documents removed successfully",
  "Invalid message format. Expected an array of messages.",
  "OpenAI Key must start with sk-",
  "Anthropic Key must start with sk-ant-",
]);

/** Lowercase words that start a sentence rather than name a field. */
const SENTENCE_WORDS = new Set([
  "a",
  "an",
  "the",
  "this",
  "that",
  "there",
  "it",
  "no",
  "not",
  "cannot",
  "could",
  "unable",
  "failed",
  "missing",
  "invalid",
  "error",
]);

/** A string or template literal, without nested template literals. */
const LITERAL = String.raw`("(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`;

/** Where messages are written: `fail(code, …)`, `new AppError(code, …)`, zod's `error:`/`message:` and checks. */
const PATTERNS = [
  new RegExp(String.raw`\bfail\(\s*"[a-z_]+",\s*${LITERAL}`, "g"),
  new RegExp(String.raw`\bnew AppError\(\s*"[a-z_]+",\s*${LITERAL}`, "g"),
  new RegExp(String.raw`\bnew (?:ProviderError|TransientProviderError|ConfigError)\(\s*${LITERAL}`, "g"),
  new RegExp(String.raw`\bnew ParseFailure\(\s*"[a-z_]+",\s*${LITERAL}`, "g"),
  new RegExp(String.raw`\b(?:error|message):\s*${LITERAL}`, "g"),
  new RegExp(
    String.raw`\.(?:min|max|length|regex|startsWith|endsWith)\([^()]*?,\s*${LITERAL}\s*,?\s*\)`,
    "g",
  ),
  new RegExp(String.raw`\.(?:int|nonnegative|positive|refine)\(\s*${LITERAL}\s*,?\s*\)`, "g"),
];

export interface Message {
  where: string;
  text: string;
}

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name === "testing" || entry.name === "node_modules") continue;
      yield* sources(path);
    } else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) {
      yield path;
    }
  }
}

/** Every message literal in the server's and the shared contracts' sources. */
export async function listMessages(): Promise<Message[]> {
  const found: Message[] = [];
  for (const dir of ["server", "shared"]) {
    for await (const file of sources(join(ROOT, dir))) {
      const text = await Deno.readTextFile(file);
      for (const pattern of PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          const literal = match[1];
          // The first part of a message joined with `+` is judged by its end, not here.
          if (text.slice(match.index! + match[0].length).trimStart().startsWith("+")) continue;
          const line = text.slice(0, match.index).split("\n").length;
          found.push({ where: `${relative(ROOT, file)}:${line}`, text: literal.slice(1, -1) });
        }
      }
    }
  }
  return found;
}

/** Why `text` breaks the style, or null when it keeps it. */
export function styleProblem(text: string): string | null {
  if (REFERENCE_TEXTS.has(text)) return null;
  // A message that is only a value, or a log line's key, is not a sentence of ours.
  if (/^\$\{[^}]*\}$/.test(text) || text.trim() === "") return null;
  // A template cut at a nested template literal cannot be judged from its source.
  if ((text.match(/\$\{/g) ?? []).length > (text.match(/\}/g) ?? []).length) return null;
  // "must …" is completed by the field's path, which the body parser puts in front.
  const start = /^(?:[A-Z0-9"'`({]|\$\{|must |[a-z][A-Za-z0-9_.]*(?: |:))/;
  const first = text.match(/^[a-z]+/)?.[0];
  if (!start.test(text) || (first !== undefined && SENTENCE_WORDS.has(first))) {
    return "starts with a lowercase word that is not a field's name";
  }
  if (!/(?:[.?!]|\.\)|\.")$|\$\{[^}]*\}$/.test(text)) return "does not end with a period";
  if (/^(?:Error|Invalid)\b/.test(text)) return "says that something is wrong instead of what";
  return null;
}

Deno.test("every error message Lectern writes is a sentence that ends with a period", async () => {
  const messages = await listMessages();
  assert.ok(messages.length > 150, `${messages.length} messages found: the patterns no longer find them`);
  const problems = messages.flatMap(({ where, text }) => {
    const problem = styleProblem(text);
    return problem ? [`${where}: ${JSON.stringify(text)} ${problem}`] : [];
  });
  assert.deepEqual(problems, []);
});

Deno.test("styleProblem() tells the three styles apart", () => {
  assert.equal(styleProblem("Chat not found."), null);
  assert.equal(styleProblem("User not found"), null, "a reference text");
  assert.equal(styleProblem("File was not found"), "does not end with a period");
  assert.equal(styleProblem('Cannot find the document "${location}"'), "does not end with a period");
  assert.equal(styleProblem("docpaths must be a list of document paths."), null);
  assert.equal(styleProblem("must be a number."), null, "completed by the field's path");
  assert.equal(styleProblem("the file is empty."), "starts with a lowercase word that is not a field's name");
  assert.equal(styleProblem("Invalid provider."), "says that something is wrong instead of what");
  assert.equal(styleProblem("The document is damaged: ${message}"), null, "ends with a nested message");
});
