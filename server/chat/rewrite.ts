// Follow-up questions: "and what about its population?" is searched as "population of Freedonia", rewritten
// with the conversation by a short call to the workspace's chat model.
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import type { ChatMessage, ChatModel } from "../providers/llm/types.ts";
import type { HistoryTurn } from "./prompt.ts";

/** The rewritten query is short: the call may write at most this many tokens. */
export const REWRITE_MAX_TOKENS = 64;
/** The last exchanges the model sees; older ones rarely hold what a follow-up refers to. */
export const REWRITE_TURNS = 3;
/** Characters of each earlier prompt and answer shown to the model. */
const REWRITE_TURN_CHARS = 600;
/** The rewriting call answers within this, or the message is searched as written. */
export const REWRITE_TIMEOUT_MS = 4_000;
/** A longer answer is not a search query (the model answered the question instead). */
const MAX_QUERY_CHARS = 400;

const INSTRUCTIONS =
  "You rewrite the user's last message into a standalone search query for a document search. Use the " +
  "conversation only to resolve what the message refers to (pronouns, omitted subjects). Keep the user's " +
  "language and key terms. Do not answer the question. Reply with the query only, on one line, without quotes.";

const clip = (text: string) =>
  text.length > REWRITE_TURN_CHARS ? `${text.slice(0, REWRITE_TURN_CHARS)}…` : text;

/** The messages of the rewriting call: the instructions, the last few exchanges, then the message. */
export function rewriteMessages(history: HistoryTurn[], message: string): ChatMessage[] {
  const conversation = history.slice(-REWRITE_TURNS).map((turn) =>
    `User: ${clip(turn.prompt)}\nAssistant: ${clip(turn.response)}`
  ).join("\n\n");
  return [
    { role: "system", content: INSTRUCTIONS },
    {
      role: "user",
      content: `Conversation:\n${conversation}\n\nLast message: ${message}\n\nStandalone search query:`,
    },
  ];
}

/** The query in the model's answer: reasoning and quotes removed, its first line; null when it is none. */
export function queryOf(answer: string): string | null {
  const line = answer.replace(/<think>[\s\S]*?(<\/think>|$)/g, "").trim().split("\n")[0]?.trim() ?? "";
  const query = line.replace(/^(standalone )?(search )?query:\s*/i, "").replace(/^["'“”]+|["'“”]+$/g, "")
    .trim();
  return query && query.length <= MAX_QUERY_CHARS ? query : null;
}

export interface RewriteInput {
  model: ChatModel;
  /** The conversation so far, oldest first. */
  history: HistoryTurn[];
  message: string;
  /** Names the workspace in the log line. */
  workspace: string;
}

/**
 * The message rewritten with the conversation into a standalone search query, or null when there is no
 * history (a first message is searched as written). A failure, a time-out or an answer that is no query is
 * logged and gives null too: the message is then searched as written, and the chat goes on.
 */
export async function rewriteQuery(
  deps: Pick<Deps, "log">,
  input: RewriteInput,
  signal: AbortSignal,
  timeoutMs = REWRITE_TIMEOUT_MS,
): Promise<string | null> {
  if (input.history.length === 0) return null;
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  let answer = "";
  try {
    const parts = input.model.stream({
      messages: rewriteMessages(input.history, input.message),
      temperature: 0,
      maxTokens: REWRITE_MAX_TOKENS,
    }, both);
    await raceAbort(
      (async () => {
        for await (const part of parts) {
          if (part.type === "text-delta") answer += part.text;
        }
      })(),
      both,
    );
  } catch (error) {
    if (signal.aborted) throw error;
    deps.log.warn("Query rewriting failed; the message is searched as written", {
      workspace: input.workspace,
      error: timeout.aborted ? `no answer within ${timeoutMs} ms` : messageOf(error),
    });
    return null;
  }
  const query = queryOf(answer);
  if (query === null) {
    deps.log.warn("Query rewriting gave no query; the message is searched as written", {
      workspace: input.workspace,
    });
  }
  return query;
}

/** `work`, or the abort's reason as soon as `signal` aborts (a provider that ignores the signal cannot hold it). */
function raceAbort(work: Promise<void>, signal: AbortSignal): Promise<void> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}
