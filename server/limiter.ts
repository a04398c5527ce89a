/**
 * At most `max()` tasks at once; the others wait their turn in order. `max` is read each time a task asks, so
 * a limit that depends on the machine's state (free memory) follows it.
 */
export function createLimiter(max: () => number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async (): Promise<() => void> => {
    while (running >= Math.max(1, max())) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      waiting.shift()?.();
    };
  };
  return {
    /** Runs `task` when a place is free. */
    async run<T>(task: () => Promise<T>): Promise<T> {
      const release = await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
  };
}
