import { messageOf, ProviderError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { SettingsService } from "../../settings/service.ts";
import { openChromaStore } from "./chroma.ts";
import { type LanceStoreOptions, openLanceStore } from "./lancedb.ts";
import type { SearchOptions, VectorHit, VectorRecord, VectorStore } from "./types.ts";

export const DEFAULT_VECTOR_DB = "lancedb";

export interface VectorRegistryOptions extends LanceStoreOptions {
  /** STORAGE_DIR/lancedb. */
  lancedbDir: string;
  log: Logger;
  /** How Chroma is reached (tests may pass their own). */
  fetch?: typeof fetch;
}

/**
 * What a native store's error says happened, without its trail: LanceDB's messages chain "Caused by:" parts and
 * name Rust source files; the innermost part that names a path or a reason is kept.
 */
export function rootCause(error: unknown): string {
  const parts = messageOf(error).split(/\s*Caused by:\s*/).map((part) =>
    part.replace(/,\s*\/\S+\.rs:\d+:\d+/g, "").replace(/^(lance error: )?LanceError\(\w+\):\s*/, "").trim()
  ).filter(Boolean);
  const withPath = parts.findLast((part) => /\//.test(part));
  return withPath ?? parts.at(-1) ?? "unknown error";
}

/** The vector database the settings name (LanceDB when none is saved). */
export function vectorDbOf(settings: Pick<SettingsService, "value">): string {
  return settings.value("VectorDB") || DEFAULT_VECTOR_DB;
}

/** The Chroma store of the current Chroma settings, opened again when its address or key changes. */
class ChromaSlot {
  private current: { key: string; store: VectorStore } | null = null;

  constructor(
    private readonly settings: Pick<SettingsService, "value">,
    private readonly fetch: typeof globalThis.fetch | undefined,
  ) {}

  /** The store, or null while no Chroma endpoint is set. */
  store(): VectorStore | null {
    const endpoint = this.settings.value("ChromaEndpoint");
    if (!endpoint) return null;
    const apiHeader = this.settings.value("ChromaApiHeader");
    const apiKey = this.settings.value("ChromaApiKey");
    const key = JSON.stringify([endpoint, apiHeader ?? "", apiKey ?? ""]);
    if (this.current?.key !== key) {
      this.current?.store.close().catch(() => {});
      this.current = { key, store: openChromaStore({ endpoint, apiHeader, apiKey, fetch: this.fetch }) };
    }
    return this.current.store;
  }

  async close(): Promise<void> {
    await this.current?.store.close();
  }
}

/**
 * The vector store of the current settings, looked up on every call, so a new VectorDB (or new Chroma address
 * or key) applies to the next write and search without a restart. Vectors already stored stay where they are:
 * search, count and new embeddings use the chosen store only. Removals also reach the other configured store
 * (in the background, failures logged), so switching back never brings a removed document's chunks back.
 */
class SwitchingVectorStore implements VectorStore {
  private readonly chroma: ChromaSlot;
  private readonly cleanups = new Set<Promise<void>>();

  constructor(
    private readonly settings: Pick<SettingsService, "value">,
    private readonly lance: VectorStore,
    private readonly options: VectorRegistryOptions,
  ) {
    this.chroma = new ChromaSlot(settings, options.fetch);
  }

  // Async, so a store that cannot be used rejects like a failed call instead of throwing in the caller.
  async upsert(namespace: string, records: VectorRecord[]): Promise<void> {
    await this.onActive((store) => store.upsert(namespace, records));
  }

  async search(namespace: string, vector: number[], search: SearchOptions): Promise<VectorHit[]> {
    return await this.onActive((store) => store.search(namespace, vector, search));
  }

  async count(namespace: string): Promise<number> {
    return await this.onActive((store) => store.count(namespace));
  }

  async deleteDocuments(namespace: string, docIds: string[]): Promise<void> {
    await this.onActive(async (chosen) => {
      await chosen.deleteDocuments(namespace, docIds);
      this.alsoElsewhere(chosen, "deleteDocuments", (store) => store.deleteDocuments(namespace, docIds));
    });
  }

  async dropNamespaces(prefix: string): Promise<void> {
    await this.onActive(async (chosen) => {
      await chosen.dropNamespaces(prefix);
      this.alsoElsewhere(chosen, "dropNamespaces", (store) => store.dropNamespaces(prefix));
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.cleanups]);
    await this.chroma.close();
    await this.lance.close();
  }

  private active(): VectorStore {
    const id = vectorDbOf(this.settings);
    if (id === "lancedb") return this.lance;
    if (id === "chroma") {
      const store = this.chroma.store();
      if (!store) {
        throw new ProviderError(
          "Chroma is the chosen vector database, but its endpoint (ChromaEndpoint) is not set.",
        );
      }
      return store;
    }
    throw new ProviderError(`The vector database ${id} is not available in this version of Lectern.`);
  }

  /**
   * Runs a call on the chosen store; a failure that is not already a ProviderError (LanceDB's own errors) becomes
   * one naming the store and the cause, so callers answer 502 with a sentence, never a bare 500.
   */
  private async onActive<T>(work: (store: VectorStore) => Promise<T>): Promise<T> {
    const chosen = this.active();
    try {
      return await work(chosen);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const name = chosen === this.lance ? "LanceDB" : vectorDbOf(this.settings);
      throw new ProviderError(`The vector database (${name}) failed: ${rootCause(error)}`, undefined, {
        cause: error,
      });
    }
  }

  /** Runs a removal on every configured store but the chosen one, without making the caller wait. */
  private alsoElsewhere(chosen: VectorStore, action: string, work: (store: VectorStore) => Promise<void>) {
    let others: VectorStore[];
    try {
      others = [this.lance, this.chroma.store()].filter((store): store is VectorStore =>
        store !== null && store !== chosen
      );
    } catch {
      return;
    }
    for (const store of others) {
      const task = work(store).catch((error) => {
        this.options.log.warn("Cannot remove vectors from the store not in use", {
          action,
          error: messageOf(error),
        });
      });
      this.cleanups.add(task);
      task.finally(() => this.cleanups.delete(task));
    }
  }
}

/** The LanceDB store, opened now, and Chroma when the settings choose it (see SwitchingVectorStore). */
export async function openVectorStores(
  settings: Pick<SettingsService, "value">,
  options: VectorRegistryOptions,
): Promise<VectorStore> {
  return new SwitchingVectorStore(settings, await openLanceStore(options.lancedbDir, options), options);
}
