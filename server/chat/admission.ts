// Admission of chat starts. A chat's start (quota, history, retrieval, the prompt, building the model's request)
// is most of its CPU; its streaming afterwards is little per chunk. When hundreds of chats arrive at once, their
// starts all running together kept the one JS thread busy for seconds and the chunks of the answers already
// streaming waited behind them. So at most `limit` starts run at once; the others wait their turn, in the order
// they came, for as long as it takes (none is refused or timed out; a chat whose client leaves leaves the queue).
// A start's slot is given back once the model has been asked (its request handed to fetch; or the model asked
// to rewrite a follow-up; or the answer ends), so the time the model takes does not hold it.

/** A start's place among those running: given back once, by `release` (again: nothing). */
export interface StartSlot {
  release(): void;
}

interface Waiter {
  admit: () => void;
  signal: AbortSignal;
  leave: () => void;
}

/**
 * The default number of chat starts in progress at once: no practical limit. bench/chat.ts's 500 concurrent
 * streams on a quiet 2-core machine, two runs each: a limit of 4 left the p99 gap between chunks as it was (218 and
 * 231 ms against 202 and 258 without) and made the last first chunks later (p99 3.1-4.0 s against 2.4-2.8 s); on
 * a machine overloaded by other processes (load 8-13) it cut that gap 2-10 times. An operator who sees streaming
 * answers stall under bursts of new chats sets CHAT_STARTS_AT_ONCE (e.g. 4).
 */
export const CHAT_STARTS_AT_ONCE = 10_000;

export class ChatAdmission {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limit = CHAT_STARTS_AT_ONCE) {}

  /** Starts running now. */
  get active(): number {
    return this.running;
  }

  /** Starts waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * A slot, at once when one is free and nobody waits, else when the chats before this one have had theirs.
   * Rejects with the signal's reason when it aborts first (the waiter has then left the queue).
   */
  async enter(signal: AbortSignal): Promise<StartSlot> {
    await this.take(signal);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.running--;
        this.next();
      },
    };
  }

  /** Resolves once a slot is this caller's. */
  private take(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.limit && this.waiting === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        admit: () => {
          signal.removeEventListener("abort", waiter.leave);
          this.running++;
          resolve();
        },
        leave: () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener("abort", waiter.leave, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Admits the next waiters while slots are free. */
  private next(): void {
    while (this.running < this.limit && this.queue.length > 0) {
      const waiter = this.queue.shift()!;
      if (!waiter.signal.aborted) waiter.admit();
    }
  }
}
