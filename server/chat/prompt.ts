import type { ChatMessage, ImageInput } from "../providers/llm/types.ts";
import { tokenCounter, truncateMiddle } from "../documents/tokens.ts";

export interface PromptVariables {
  now: Date;
  user?: { id: number | null; name: string | null; bio?: string | null };
  workspace: { id: number; name: string };
  /** The admin's own variables (`{key}` → value); the built-in names win over them. */
  custom?: Readonly<Record<string, string>>;
}

// Made once, on the first chat: toLocaleDateString/toLocaleTimeString build a new ICU formatter on every call
// (milliseconds each), and the first formatter loads ICU's data, which a server start does not need.
let formats:
  | { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat; time24: Intl.DateTimeFormat }
  | undefined;
const dateFormats = () =>
  formats ??= {
    date: new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" }),
    time: new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" }),
    time24: new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" }),
  };

/** The built-in variables of one chat: `{date} {time} {datetime} {time_24} {datetime_24}`, `{user.*}`,
 * `{workspace.*}`. */
export function builtInValues(variables: Omit<PromptVariables, "custom">): Record<string, string> {
  const { now } = variables;
  const format = dateFormats();
  const date = format.date.format(now);
  const time = format.time.format(now);
  const time24 = format.time24.format(now);
  return {
    date,
    time,
    datetime: `${date} ${time}`,
    time_24: time24,
    datetime_24: `${date} ${time24}`,
    "user.id": String(variables.user?.id ?? ""),
    "user.name": variables.user?.name ?? "",
    "user.bio": variables.user?.bio ?? "",
    "workspace.id": String(variables.workspace.id),
    "workspace.name": variables.workspace.name,
  };
}

/**
 * Expands the built-in variables and the admin's own ones in one pass (a value is never expanded again);
 * unknown names stay as they are.
 */
export function expandVariables(template: string, variables: PromptVariables): string {
  const values: Record<string, string> = { ...variables.custom, ...builtInValues(variables) };
  return template.replace(
    /\{([a-z_.0-9]+)\}/gi,
    (whole, name: string) => Object.hasOwn(values, name) ? values[name] : whole,
  );
}

/**
 * The system message: the workspace prompt, then each context text
 * (docs/api-compat.md#prompt-assembly-and-fitting).
 */
export function systemMessage(prompt: string, contextTexts: string[]): string {
  if (contextTexts.length === 0) return prompt;
  const blocks = contextTexts.map((text, index) =>
    `[CONTEXT ${index}]:\n${text}\n[END CONTEXT ${index}]\n\n`
  );
  return `${prompt}\nContext:\n${blocks.join("")}`;
}

export interface HistoryTurn {
  prompt: string;
  response: string;
  images?: ImageInput[];
}

export interface PromptParts {
  /** The workspace prompt with its variables expanded. */
  system: string;
  /** Context texts, best first: citations, then backfill. */
  contexts: string[];
  history: HistoryTurn[];
  message: string;
  images?: ImageInput[];
}

export function buildMessages(parts: PromptParts): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: systemMessage(parts.system, parts.contexts) }];
  for (const turn of parts.history) {
    // A conversation the caller brings may have a side missing (two user messages in a row): it is left out.
    if (turn.prompt !== "" || turn.images?.length) {
      messages.push({ role: "user", content: turn.prompt, images: turn.images });
    }
    if (turn.response !== "") messages.push({ role: "assistant", content: turn.response });
  }
  messages.push({ role: "user", content: parts.message, images: parts.images });
  return messages;
}

/** Tokens an image costs at most in the reference tokenizers' accounting (OpenAI: 85 base, 170 per tile). */
const IMAGE_TOKENS = 765;

/** Message texts whose count is kept, per counter, and the longest text kept. */
const COUNTS_KEPT = 500;
const LONGEST_KEPT = 64 * 1024;
const counts = new WeakMap<(text: string) => number, Map<string, number>>();

/**
 * The tokens of a message text, counted once while it is recent: a thread's history goes to the model, and is
 * counted, with every message, and a chat's prompt is counted when fitted and again for its metrics (2-3 ms for
 * a prompt of 2,500 tokens with twenty turns of history, on 2 cores).
 */
function countOnce(text: string, count: (text: string) => number): number {
  if (text.length > LONGEST_KEPT) return count(text);
  let kept = counts.get(count);
  if (!kept) {
    kept = new Map();
    counts.set(count, kept);
  }
  const known = kept.get(text);
  if (known !== undefined) return known;
  const tokens = count(text);
  if (kept.size >= COUNTS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(text, tokens);
  return tokens;
}

export function countMessageTokens(messages: ChatMessage[], count: (text: string) => number): number {
  return messages.reduce(
    (total, message) =>
      total + countOnce(message.content, count) + 4 + (message.images?.length ?? 0) * IMAGE_TOKENS,
    0,
  );
}

/**
 * At most the cl100k tokens of `text` as documents/tokens.ts counts them, without counting: byte-level BPE gives
 * every token one UTF-8 byte or more (a special token many), and a run of over 256 non-space characters, counted
 * apart in pieces, adds at most one token (the space left in its place) per 257 characters.
 */
export function tokensAtMost(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two bytes below U+0800, three above; a surrogate pair's four counted as six.
    if (code >= 0x80) bytes += code >= 0x800 ? 2 : 1;
  }
  return bytes + Math.ceil(text.length / 256);
}

/**
 * At most `countMessageTokens(messages, count)`: the texts counted lately by their count, the others by
 * `tokensAtMost`. Nothing is counted.
 */
export function messageTokensAtMost(messages: ChatMessage[], count: (text: string) => number): number {
  const kept = counts.get(count);
  return messages.reduce(
    (total, message) =>
      total + (kept?.get(message.content) ?? tokensAtMost(message.content)) + 4 +
      (message.images?.length ?? 0) * IMAGE_TOKENS,
    0,
  );
}

/**
 * Makes the prompt fit the context window with room for the answer, and never fails:
 * the oldest history turns go first, then the lowest-ranked context, then the middle of the system
 * prompt (down to 15 % of the window) and, last, the middle of the message itself. A prompt that fits for sure
 * by `messageTokensAtMost` is not counted: its new texts (the context above all, about 0.5 ms of counting for
 * four chunks of 1,000 characters) are counted, if at all, for the answer's metrics once it is streamed.
 * `count` is the counter (tokens.ts's, unless given).
 */
export async function fitPrompt(
  parts: PromptParts,
  contextWindow: number,
  answerBudget: number,
  count?: (text: string) => number,
): Promise<PromptParts> {
  count ??= await tokenCounter();
  const limit = Math.max(64, contextWindow - Math.min(answerBudget, Math.floor(contextWindow / 2)));
  const counter = count;
  const size = (candidate: PromptParts) => countMessageTokens(buildMessages(candidate), counter);
  let fitted: PromptParts = { ...parts, history: [...parts.history], contexts: [...parts.contexts] };
  if (messageTokensAtMost(buildMessages(fitted), count) <= limit) return fitted;
  if (size(fitted) <= limit) return fitted;

  const turnCost = fitted.history.map((turn) => count(turn.prompt) + count(turn.response) + 8);
  let total = size(fitted);
  let dropped = 0;
  while (dropped < turnCost.length && total > limit) total -= turnCost[dropped++];
  fitted = { ...fitted, history: fitted.history.slice(dropped) };

  while (fitted.contexts.length > 0 && size(fitted) > limit) {
    fitted = { ...fitted, contexts: fitted.contexts.slice(0, -1) };
  }
  if (size(fitted) > limit) {
    fitted = { ...fitted, system: await truncateMiddle(fitted.system, Math.floor(limit * 0.15)) };
  }
  const overflow = size(fitted) - limit;
  if (overflow > 0) {
    fitted = {
      ...fitted,
      message: await truncateMiddle(fitted.message, Math.max(16, count(fitted.message) - overflow)),
    };
  }
  return fitted;
}
