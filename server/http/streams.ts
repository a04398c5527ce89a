/** Open SSE streams, ended on shutdown so the server can stop without waiting for them. */
export class StreamRegistry {
  private readonly controllers = new Set<AbortController>();
  open(): AbortController {
    const controller = new AbortController();
    this.controllers.add(controller);
    return controller;
  }
  private waiters: (() => void)[] = [];
  close(controller: AbortController) {
    this.controllers.delete(controller);
    if (this.controllers.size === 0) { for (const resolve of this.waiters.splice(0)) resolve(); }
  }
  /** Resolves when every open stream has ended, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.controllers.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  get size(): number {
    return this.controllers.size;
  }
  abortAll(reason = "The server is shutting down") {
    for (const controller of this.controllers) controller.abort(new Error(reason));
  }
}
