import { messageOf, ProviderError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { SettingsService } from "../../settings/service.ts";
import { VECTOR_DBS, type VectorDbId } from "../../../shared/providers/embedder_catalog.ts";
import { type LanceStoreOptions, openLanceStore } from "./lancedb.ts";
import {
  plainVectors,
  type SearchOptions,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "./types.ts";

export const DEFAULT_VECTOR_DB = "lancedb";

export interface VectorRegistryOptions extends LanceStoreOptions {
  /** STORAGE_DIR/lancedb. */
  lancedbDir: string;
  log: Logger;
  /** How the remote databases are reached (tests may pass their own). */
  fetch?: typeof fetch;
  /** Pinecone's control plane; https://api.pinecone.io unless given (Pinecone Local, tests). */
  pineconeControlPlane?: string;
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

type RemoteDbId = Exclude<VectorDbId, "lancedb">;
type Values = (key: string) => string | undefined;

/**
 * A store whose module loads on its first call: a server on LanceDB, the default, never loads the remote
 * databases' clients (issue 21). A failed load is tried again on the next call; `close` loads nothing.
 */
function lazyStore(load: () => Promise<VectorStore>): VectorStore {
  let opened: Promise<VectorStore> | null = null;
  const store = () =>
    opened ??= load().catch((error) => {
      opened = null;
      throw error;
    });
  return {
    upsert: async (namespace, records) => await (await store()).upsert(namespace, records),
    search: async (namespace, vector, options) => await (await store()).search(namespace, vector, options),
    count: async (namespace) => await (await store()).count(namespace),
    deleteDocuments: async (namespace, docIds) => await (await store()).deleteDocuments(namespace, docIds),
    dropNamespaces: async (prefix) => await (await store()).dropNamespaces(prefix),
    async close() {
      const loaded = opened && await opened.catch(() => null);
      await loaded?.close();
    },
  };
}

/**
 * The store of a remote database from its settings (the fields of its row in VECTOR_DBS), read now; its module
 * loads on the store's first call.
 */
function openRemote(id: RemoteDbId, value: Values, options: VectorRegistryOptions): VectorStore {
  const fetch = options.fetch;
  switch (id) {
    case "chroma": {
      const settings = {
        endpoint: value("ChromaEndpoint")!,
        apiHeader: value("ChromaApiHeader"),
        apiKey: value("ChromaApiKey"),
        fetch,
      };
      return lazyStore(async () => (await import("./chroma.ts")).openChromaStore(settings));
    }
    case "qdrant": {
      const settings = { endpoint: value("QdrantEndpoint")!, apiKey: value("QdrantApiKey"), fetch };
      return lazyStore(async () => (await import("./qdrant.ts")).openQdrantStore(settings));
    }
    case "pinecone": {
      const settings = {
        apiKey: value("PineConeKey")!,
        index: value("PineConeIndex")!,
        controlPlane: options.pineconeControlPlane,
        fetch,
      };
      return lazyStore(async () => (await import("./pinecone.ts")).openPineconeStore(settings));
    }
    case "weaviate": {
      const settings = { endpoint: value("WeaviateEndpoint")!, apiKey: value("WeaviateApiKey"), fetch };
      return lazyStore(async () => (await import("./weaviate.ts")).openWeaviateStore(settings));
    }
    case "milvus": {
      const username = value("MilvusUsername");
      const settings = {
        endpoint: value("MilvusAddress")!,
        token: username ? `${username}:${value("MilvusPassword") ?? ""}` : undefined,
        fetch,
      };
      return lazyStore(async () => (await import("./milvus.ts")).openMilvusStore(settings));
    }
    case "zilliz": {
      const settings = { endpoint: value("ZillizEndpoint")!, token: value("ZillizApiToken")!, fetch };
      return lazyStore(async () => (await import("./zilliz.ts")).openZillizStore(settings));
    }
    case "astra": {
      const settings = {
        endpoint: value("AstraDBEndpoint")!,
        token: value("AstraDBApplicationToken")!,
        fetch,
      };
      return lazyStore(async () => (await import("./astra.ts")).openAstraStore(settings));
    }
  }
}

/**
 * The stores of the remote databases (Chroma, Qdrant, Pinecone, Weaviate, Milvus, Zilliz, Astra DB), each opened
 * from its current settings and opened again when one of them changes.
 */
class RemoteSlots {
  private readonly current = new Map<RemoteDbId, { key: string; store: VectorStore }>();

  constructor(
    private readonly settings: Pick<SettingsService, "value">,
    private readonly options: VectorRegistryOptions,
  ) {}

  /** The required settings of `id` that are not set. */
  missing(id: RemoteDbId): string[] {
    const entry = VECTOR_DBS.find((database) => database.id === id)!;
    return entry.fields.filter((field) => field.required && !this.settings.value(field.key)?.trim())
      .map((field) => field.key);
  }

  /** The store, or null while a required setting is missing. */
  store(id: RemoteDbId): VectorStore | null {
    if (this.missing(id).length > 0) return null;
    const entry = VECTOR_DBS.find((database) => database.id === id)!;
    const value = (key: string) => this.settings.value(key)?.trim() || undefined;
    const key = JSON.stringify(entry.fields.map((field) => value(field.key) ?? ""));
    const slot = this.current.get(id);
    if (slot?.key === key) return slot.store;
    slot?.store.close().catch(() => {});
    const store = openRemote(id, value, this.options);
    this.current.set(id, { key, store });
    return store;
  }

  /** Every remote store whose settings are complete. */
  configured(): VectorStore[] {
    return REMOTE_DB_IDS.map((id) => this.store(id)).filter((store): store is VectorStore => store !== null);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.current.values()].map((slot) => slot.store.close()));
  }
}

const REMOTE_DB_IDS = VECTOR_DBS.filter((database) => !database.embedded).map((database) =>
  database.id
) as RemoteDbId[];

/**
 * The vector store of the current settings, looked up on every call, so a new VectorDB (or a new address
 * or key) applies to the next write and search without a restart. Vectors already stored stay where they are:
 * search, count and new embeddings use the chosen store only. Removals also reach the other configured store
 * (in the background, failures logged), so switching back never brings a removed document's chunks back.
 */
class SwitchingVectorStore implements VectorStore {
  private readonly remote: RemoteSlots;
  private readonly cleanups = new Set<Promise<void>>();

  constructor(
    private readonly settings: Pick<SettingsService, "value">,
    private readonly lance: VectorStore,
    private readonly options: VectorRegistryOptions,
  ) {
    this.remote = new RemoteSlots(settings, options);
  }

  // Async, so a store that cannot be used rejects like a failed call instead of throwing in the caller.
  async upsert(namespace: string, records: VectorRecord[]): Promise<void> {
    await this.onActive((store) =>
      store.upsert(namespace, store === this.lance ? records : plainVectors(records))
    );
  }

  expectAdds(namespace: string): () => void {
    let chosen: VectorStore;
    try {
      chosen = this.active();
    } catch {
      return () => {};
    }
    return chosen.expectAdds?.(namespace) ?? (() => {});
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
    await this.remote.close();
    await this.lance.close();
  }

  private active(): VectorStore {
    const id = vectorDbOf(this.settings);
    if (id === "lancedb") return this.lance;
    const entry = VECTOR_DBS.find((database) => database.id === id);
    if (!entry?.builtIn) {
      throw new ProviderError(`The vector database ${id} is not available in this version of Lectern.`);
    }
    const store = this.remote.store(id as RemoteDbId);
    if (!store) {
      const missing = this.remote.missing(id as RemoteDbId);
      throw new ProviderError(
        `${entry.name} is the chosen vector database, but its ${missing.join(" and ")} ${
          missing.length === 1 ? "setting is" : "settings are"
        } not set.`,
      );
    }
    return store;
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
      const id = vectorDbOf(this.settings);
      const name = chosen === this.lance
        ? "LanceDB"
        : VECTOR_DBS.find((database) => database.id === id)?.name ?? id;
      throw new ProviderError(`The vector database (${name}) failed: ${rootCause(error)}`, undefined, {
        cause: error,
      });
    }
  }

  /** Runs a removal on every configured store but the chosen one, without making the caller wait. */
  private alsoElsewhere(chosen: VectorStore, action: string, work: (store: VectorStore) => Promise<void>) {
    let others: VectorStore[];
    try {
      others = [this.lance, ...this.remote.configured()].filter((store) => store !== chosen);
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

/** The LanceDB store, opened now, and a remote database when the settings choose one (see SwitchingVectorStore). */
export async function openVectorStores(
  settings: Pick<SettingsService, "value">,
  options: VectorRegistryOptions,
): Promise<VectorStore> {
  return new SwitchingVectorStore(settings, await openLanceStore(options.lancedbDir, options), options);
}
