import { messageOf, ProviderError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { SettingsService } from "../../settings/service.ts";
import { openChromaStore } from "./chroma.ts";
import { type LanceStoreOptions, openLanceStore } from "./lancedb.ts";
import type { SearchOptions, VectorRecord, VectorStore } from "./types.ts";

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

/**
 * The vector store of the current settings, looked up on every call, so a new VectorDB (or new Chroma address
 * or key) applies to the next write and search without a restart. Vectors already stored stay where they are:
 * search, count and new embeddings use the chosen store only. Removals also reach the other configured store
 * (in the background, failures logged), so switching back never brings a removed document's chunks back.
 */
export async function openVectorStores(
  settings: Pick<SettingsService, "value">,
  options: VectorRegistryOptions,
): Promise<VectorStore> {
  const lance = await openLanceStore(options.lancedbDir, options);
  let chroma: { key: string; store: VectorStore } | null = null;
  const cleanups = new Set<Promise<void>>();

  function chromaStore(): VectorStore | null {
    const endpoint = settings.value("ChromaEndpoint");
    if (!endpoint) return null;
    const apiHeader = settings.value("ChromaApiHeader");
    const apiKey = settings.value("ChromaApiKey");
    const key = JSON.stringify([endpoint, apiHeader ?? "", apiKey ?? ""]);
    if (chroma?.key !== key) {
      chroma?.store.close().catch(() => {});
      chroma = { key, store: openChromaStore({ endpoint, apiHeader, apiKey, fetch: options.fetch }) };
    }
    return chroma.store;
  }

  function active(): VectorStore {
    const id = vectorDbOf(settings);
    if (id === "lancedb") return lance;
    if (id === "chroma") {
      const store = chromaStore();
      if (!store) {
        throw new ProviderError(
          "Chroma is the chosen vector database, but its endpoint (ChromaEndpoint) is not set.",
        );
      }
      return store;
    }
    throw new ProviderError(`The vector database ${id} is not available in this version of Lectern.`);
  }

  /** Runs a removal on every configured store but the chosen one, without making the caller wait. */
  function alsoElsewhere(chosen: VectorStore, action: string, work: (store: VectorStore) => Promise<void>) {
    let others: VectorStore[];
    try {
      others = [lance, chromaStore()].filter((store): store is VectorStore =>
        store !== null && store !== chosen
      );
    } catch {
      return;
    }
    for (const store of others) {
      const task = work(store).catch((error) => {
        options.log.warn("Cannot remove vectors from the store not in use", {
          action,
          error: messageOf(error),
        });
      });
      cleanups.add(task);
      task.finally(() => cleanups.delete(task));
    }
  }

  /**
   * Runs a call on the chosen store; a failure that is not already a ProviderError (LanceDB's own errors) becomes
   * one naming the store and the cause, so callers answer 502 with a sentence, never a bare 500.
   */
  async function onActive<T>(work: (store: VectorStore) => Promise<T>): Promise<T> {
    const chosen = active();
    try {
      return await work(chosen);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const name = chosen === lance ? "LanceDB" : vectorDbOf(settings);
      throw new ProviderError(`The vector database (${name}) failed: ${rootCause(error)}`, undefined, {
        cause: error,
      });
    }
  }

  return {
    // Async, so a store that cannot be used rejects like a failed call instead of throwing in the caller.
    async upsert(namespace: string, records: VectorRecord[]) {
      await onActive((store) => store.upsert(namespace, records));
    },
    async search(namespace: string, vector: number[], search: SearchOptions) {
      return await onActive((store) => store.search(namespace, vector, search));
    },
    async count(namespace: string) {
      return await onActive((store) => store.count(namespace));
    },
    async deleteDocuments(namespace: string, docIds: string[]) {
      await onActive(async (chosen) => {
        await chosen.deleteDocuments(namespace, docIds);
        alsoElsewhere(chosen, "deleteDocuments", (store) => store.deleteDocuments(namespace, docIds));
      });
    },
    async dropNamespaces(prefix: string) {
      await onActive(async (chosen) => {
        await chosen.dropNamespaces(prefix);
        alsoElsewhere(chosen, "dropNamespaces", (store) => store.dropNamespaces(prefix));
      });
    },
    async close() {
      await Promise.allSettled([...cleanups]);
      await chroma?.store.close();
      await lance.close();
    },
  };
}
