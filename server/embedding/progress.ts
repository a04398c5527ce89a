/**
 * Per-workspace progress of documents being embedded into a workspace, as the reference's web client reads it
 * from `GET /api/workspace/:slug/embed-progress` (docs/api-compat.md, "Calls issue 14 must
 * add" 5). `filename` is the document's location (`folder/file.json`), the value `update-embeddings` takes.
 */
export type WorkspaceEmbedFrame =
  | { type: "batch_starting"; workspaceSlug: string; filenames: string[]; totalDocs: number }
  | { type: "doc_starting"; workspaceSlug: string; filename: string; docIndex: number; totalDocs: number }
  | {
    type: "chunk_progress";
    workspaceSlug: string;
    filename: string;
    chunksProcessed: number;
    totalChunks: number;
  }
  | { type: "doc_complete"; workspaceSlug: string; filename: string; docIndex: number; totalDocs: number }
  | {
    type: "doc_failed";
    workspaceSlug: string;
    filename: string;
    docIndex: number;
    totalDocs: number;
    error: string;
  }
  | { type: "file_removed"; workspaceSlug: string; filename: string }
  | {
    type: "all_complete";
    workspaceSlug: string;
    totalDocs: number;
    embedded: number;
    failed: number;
    embeddedFiles: string[];
    failedFiles: string[];
    error?: string;
  };

type Listener = (frame: WorkspaceEmbedFrame) => void;

/** How long the frames of a finished run are kept for a client that connects just after it ended. */
export const FINISHED_REPLAY_MS = 10_000;
/**
 * How long a client that connects while nothing runs, shortly after a run ended, waits for a new run before it
 * is sent the finished one: the reference's client posts `update-embeddings` and opens the stream at once, so
 * the new run may start a moment after the stream opens.
 */
export const NEXT_RUN_GRACE_MS = 1_000;

interface Run {
  slug: string;
  /** Batches that have begun and not ended. */
  active: number;
  frames: WorkspaceEmbedFrame[];
  /** Locations named by a batch and not started yet: what `embed-queue` may still remove. */
  queued: Set<string>;
  /** Locations removed from the queue, skipped when their turn comes. */
  removed: Set<string>;
  totalDocs: number;
  embedded: string[];
  failed: string[];
}

/** One call of `addDocuments`: reports each document's steps into its workspace's run. */
export interface EmbedBatch {
  /** True (and `file_removed` is sent) when the location was taken out of the queue; skip it then. */
  removed(location: string): boolean;
  starting(location: string, index: number): void;
  chunks(location: string, processed: number, total: number): void;
  complete(location: string, index: number): void;
  failed(location: string, index: number, error: string): void;
  end(): void;
}

/**
 * The embedding progress of every workspace. Batches of one workspace that overlap share a run: each sends its
 * own `batch_starting`, and `all_complete` (with the run's totals) follows the last one to end. A client that
 * connects during a run is sent the run's frames so far; one that connects within FINISHED_REPLAY_MS after a
 * run ended is sent that run (after NEXT_RUN_GRACE_MS without a new run), so a fast embedding that ended before
 * the stream opened still reaches it. Otherwise the stream stays open and silent until the next run, as the
 * reference's does.
 */
export class EmbedProgress {
  private readonly runs = new Map<number, Run>();
  private readonly finished = new Map<number, { frames: WorkspaceEmbedFrame[]; endedAt: number }>();
  private readonly listeners = new Map<number, Set<Listener>>();

  constructor(private readonly now: () => number = Date.now) {}

  begin(workspace: { id: number; slug: string }, locations: string[]): EmbedBatch {
    let run = this.runs.get(workspace.id);
    if (!run) {
      run = {
        slug: workspace.slug,
        active: 0,
        frames: [],
        queued: new Set(),
        removed: new Set(),
        totalDocs: 0,
        embedded: [],
        failed: [],
      };
      this.runs.set(workspace.id, run);
      this.finished.delete(workspace.id);
    }
    const current = run;
    current.active++;
    current.totalDocs += locations.length;
    for (const location of locations) current.queued.add(location);
    const slug = current.slug;
    const totalDocs = locations.length;
    this.emit(workspace.id, { type: "batch_starting", workspaceSlug: slug, filenames: locations, totalDocs });
    let ended = false;
    return {
      removed: (location) => {
        if (!current.removed.delete(location)) return false;
        current.totalDocs--;
        return true;
      },
      starting: (location, index) => {
        current.queued.delete(location);
        this.emit(workspace.id, {
          type: "doc_starting",
          workspaceSlug: slug,
          filename: location,
          docIndex: index,
          totalDocs,
        });
      },
      chunks: (location, processed, total) =>
        this.emit(workspace.id, {
          type: "chunk_progress",
          workspaceSlug: slug,
          filename: location,
          chunksProcessed: processed,
          totalChunks: total,
        }),
      complete: (location, index) => {
        current.embedded.push(location);
        this.emit(workspace.id, {
          type: "doc_complete",
          workspaceSlug: slug,
          filename: location,
          docIndex: index,
          totalDocs,
        });
      },
      failed: (location, index, error) => {
        current.queued.delete(location);
        current.failed.push(location);
        this.emit(workspace.id, {
          type: "doc_failed",
          workspaceSlug: slug,
          filename: location,
          docIndex: index,
          totalDocs,
          error,
        });
      },
      end: () => {
        if (ended) return;
        ended = true;
        for (const location of locations) current.queued.delete(location);
        if (--current.active > 0) return;
        this.runs.delete(workspace.id);
        this.emit(workspace.id, {
          type: "all_complete",
          workspaceSlug: slug,
          totalDocs: current.totalDocs,
          embedded: current.embedded.length,
          failed: current.failed.length,
          embeddedFiles: current.embedded,
          failedFiles: current.failed,
        }, current);
        this.finished.set(workspace.id, { frames: current.frames, endedAt: this.now() });
      },
    };
  }

  /**
   * Takes a location that a running batch has not started yet out of the queue (`DELETE embed-queue`); a
   * `file_removed` frame follows. False when nothing runs or the document is already being embedded.
   */
  removeQueued(workspaceId: number, location: string): boolean {
    const run = this.runs.get(workspaceId);
    if (!run || !run.queued.delete(location)) return false;
    run.removed.add(location);
    this.emit(workspaceId, { type: "file_removed", workspaceSlug: run.slug, filename: location });
    return true;
  }

  /** Whether a run is under way for the workspace. */
  isRunning(workspaceId: number): boolean {
    return this.runs.has(workspaceId);
  }

  /**
   * The frames of a workspace: those of the run under way (or of one that just ended, see the class comment),
   * then every new frame, until `signal` aborts.
   */
  async *frames(workspaceId: number, signal: AbortSignal): AsyncGenerator<WorkspaceEmbedFrame> {
    const queue: WorkspaceEmbedFrame[] = [];
    let wake: (() => void) | null = null;
    const listener: Listener = (frame) => {
      queue.push(frame);
      wake?.();
    };
    const set = this.listeners.get(workspaceId) ?? new Set();
    this.listeners.set(workspaceId, set);
    set.add(listener);
    const aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
    const waitFor = (ms?: number) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
        if (ms !== undefined) timer = setTimeout(resolve, ms);
      });
      return Promise.race([woken, aborted]).finally(() => {
        wake = null;
        clearTimeout(timer);
      });
    };
    try {
      const run = this.runs.get(workspaceId);
      if (run) queue.unshift(...run.frames);
      else {
        const last = this.finished.get(workspaceId);
        if (last && this.now() - last.endedAt < FINISHED_REPLAY_MS) {
          if (queue.length === 0) await waitFor(NEXT_RUN_GRACE_MS);
          const started = this.runs.get(workspaceId);
          // A new run began meanwhile: its frames from the start, not the old run's.
          if (started) queue.splice(0, queue.length, ...started.frames);
          else if (queue.length === 0) queue.push(...last.frames);
        }
      }
      while (!signal.aborted) {
        while (queue.length > 0) yield queue.shift()!;
        await waitFor();
      }
    } finally {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(workspaceId);
    }
  }

  private emit(workspaceId: number, frame: WorkspaceEmbedFrame, run = this.runs.get(workspaceId)) {
    if (run) {
      // Only the latest chunk count of a document is worth replaying.
      const last = run.frames.at(-1);
      if (
        frame.type === "chunk_progress" && last?.type === "chunk_progress" && last.filename === frame.filename
      ) run.frames[run.frames.length - 1] = frame;
      else run.frames.push(frame);
    }
    for (const listener of this.listeners.get(workspaceId) ?? []) listener(frame);
  }
}
