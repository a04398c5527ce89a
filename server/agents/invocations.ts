// Agent invocations: made by an `@agent` message, used once by the socket that opens within the time limit.
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";

export interface Invocation {
  uuid: string;
  actor: Actor;
  workspace: WorkspaceRow;
  threadId: number | null;
  /** The message as typed (`@agent …`), saved as the prompt of the first chat. */
  prompt: string;
  expiresAt: number;
}

/** How long an invocation waits for its socket. */
export const INVOCATION_TTL_MS = 60_000;

const stores = new WeakMap<Deps, Map<string, Invocation>>();

function storeOf(deps: Deps): Map<string, Invocation> {
  let store = stores.get(deps);
  if (!store) stores.set(deps, store = new Map());
  return store;
}

export function createInvocation(deps: Deps, input: Omit<Invocation, "uuid" | "expiresAt">): Invocation {
  const store = storeOf(deps);
  const now = Date.now();
  for (const [uuid, old] of store) if (old.expiresAt <= now) store.delete(uuid);
  const invocation = { ...input, uuid: crypto.randomUUID(), expiresAt: now + INVOCATION_TTL_MS };
  store.set(invocation.uuid, invocation);
  return invocation;
}

/** Takes the invocation out (single use); null when there is none, or it expired. */
export function takeInvocation(deps: Deps, uuid: string): Invocation | null {
  const store = storeOf(deps);
  const invocation = store.get(uuid);
  if (!invocation) return null;
  store.delete(uuid);
  return invocation.expiresAt > Date.now() ? invocation : null;
}
