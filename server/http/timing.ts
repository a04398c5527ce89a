// Where a chat's time goes before its first token, for profiling: with LECTERN_CHAT_TIMING=1 in the server's
// environment each streamed chat logs one line "Chat timing" (info level) with the milliseconds from the
// request to each step it reached. Off by default: every mark is then one boolean test.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../log.ts";

function flag(): boolean {
  try {
    return Deno.env.get("LECTERN_CHAT_TIMING") === "1";
  } catch {
    return false; // no permission to read the environment: off
  }
}

const ENABLED = flag();

/** The steps one chat reached, in milliseconds from its request. */
export interface ChatTimer {
  started: number;
  steps: [string, number][];
  logged: boolean;
}

const current = new AsyncLocalStorage<ChatTimer>();

/** A timer for one chat from now, or null when timing is off. */
export function chatTimer(): ChatTimer | null {
  return ENABLED ? { started: performance.now(), steps: [], logged: false } : null;
}

/** The frames of `stream`, each produced with `timer` as the current chat's (so `mark` finds it). */
export function timedStream<T>(timer: ChatTimer | null, stream: AsyncIterable<T>): AsyncIterable<T> {
  if (!timer) return stream;
  const iterator = stream[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => current.run(timer, () => iterator.next()),
      return: (value?: unknown) =>
        current.run(
          timer,
          () => iterator.return?.(value) ?? Promise.resolve({ done: true, value } as IteratorResult<T>),
        ),
    }),
  };
}

/** Notes that the current chat reached `step` (with `timer` when given, else the current chat's). */
export function mark(step: string, timer?: ChatTimer | null): void {
  if (!ENABLED) return;
  const marks = timer ?? current.getStore();
  if (marks) marks.steps.push([step, performance.now() - marks.started]);
}

/** Logs the current chat's steps, once (at its first token). */
export function logTiming(log: Logger, workspace: string): void {
  if (!ENABLED) return;
  const marks = current.getStore();
  if (!marks || marks.logged) return;
  marks.logged = true;
  // A step reached twice (the follow-up's rewrite asks the model too: "answer headers") is named again, numbered.
  const seen = new Map<string, number>();
  const named = marks.steps.map(([step, ms]) => {
    const times = (seen.get(step) ?? 0) + 1;
    seen.set(step, times);
    return [times === 1 ? step : `${step} ${times}`, Number(ms.toFixed(2))] as const;
  });
  log.info("Chat timing", { workspace, ...Object.fromEntries(named) });
}
