/**
 * A readers-writer gate: many shared holders at once (documents being added or removed), or one exclusive
 * holder (the embedder switch). An exclusive request stops new shared holders at once and waits for the
 * current ones, so a steady stream of uploads cannot hold a switch off.
 */
export class SwitchGate {
  private holders = 0;
  private drained: (() => void)[] = [];
  private closed: Promise<void> | null = null;

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    this.holders++;
    try {
      return await work();
    } finally {
      this.holders--;
      if (this.holders === 0) { for (const resolve of this.drained.splice(0)) resolve(); }
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    let open!: () => void;
    this.closed = new Promise((resolve) => open = resolve);
    try {
      while (this.holders > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
      return await work();
    } finally {
      this.closed = null;
      open();
    }
  }
}
