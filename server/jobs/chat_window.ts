// The chats between their start and the moment their model is asked, counted for the background jobs: a job
// runner's round writes to the database (its lease, the due times it claims), and on a local database every
// statement runs on the server's one thread; a commit landing inside a chat's start held that chat's first token
// for the disk's sync (3-5 ms on a quiet machine, tens under load: issue 21's p95). The runner waits a moment for
// none to be starting (server/jobs/runner.ts, `busy`).

let starting = 0;

/** How many chats are between their start and the model's request now (every app of this process). */
export function chatsStarting(): number {
  return starting;
}

/** Counts a chat as starting until `end` (again: nothing). */
export function chatStarting(): { end(): void } {
  starting++;
  let open = true;
  return {
    end() {
      if (!open) return;
      open = false;
      starting--;
    },
  };
}
