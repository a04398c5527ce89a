import type { ChatMessage } from "../providers/llm/types.ts";
import { tokenCounter } from "../documents/tokens.ts";

export interface PromptVariables {
  now: Date;
  user?: { id: number | null; name: string | null; bio?: string | null };
  workspace: { id: number; name: string };
}

/** Expands `{date} {time} {datetime} {time_24} {datetime_24} {user.*} {workspace.*}`; unknown names stay. */
export function expandVariables(template: string, variables: PromptVariables): string {
  const { now } = variables;
  const date = now.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  const time = now.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" });
  const time24 = now.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  const values: Record<string, string> = {
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
  return template.replace(/\{([a-z_.0-9]+)\}/gi, (whole, name: string) => values[name] ?? whole);
}

/** The system message: the workspace prompt, then each context text (api-contract.md §8.4 step 7). */
export function systemMessage(prompt: string, contextTexts: string[]): string {
  if (contextTexts.length === 0) return prompt;
  const blocks = contextTexts.map((text, index) =>
    `[CONTEXT ${index}]:\n${text}\n[END CONTEXT ${index}]\n\n`
  );
  return `${prompt}\nContext:\n${blocks.join("")}`;
}

export interface PromptParts {
  system: string;
  history: { prompt: string; response: string }[];
  message: string;
}

export function buildMessages(parts: PromptParts): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: parts.system }];
  for (const turn of parts.history) {
    messages.push({ role: "user", content: turn.prompt }, { role: "assistant", content: turn.response });
  }
  messages.push({ role: "user", content: parts.message });
  return messages;
}

export function countMessageTokens(messages: ChatMessage[], count: (text: string) => number): number {
  return messages.reduce((total, message) => total + count(message.content) + 4, 0);
}

/**
 * Drops the oldest history turns until the prompt plus the answer's budget fits the context window; each
 * message is counted once. The workspace issue replaces this with full compression of context and message.
 */
export async function fitHistory(
  parts: PromptParts,
  contextWindow: number,
  answerBudget: number,
): Promise<PromptParts> {
  const count = await tokenCounter();
  const cost = (text: string) => count(text) + 4;
  const turns = parts.history.map((turn) => cost(turn.prompt) + cost(turn.response));
  let total = cost(parts.system) + cost(parts.message) + turns.reduce((sum, turn) => sum + turn, 0);
  let first = 0;
  while (first < turns.length && total + answerBudget > contextWindow) total -= turns[first++];
  return { ...parts, history: parts.history.slice(first) };
}
