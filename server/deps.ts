import type { Database } from "../db/client.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import type { SettingsService } from "./settings/service.ts";
import type { InstanceKeys } from "./auth/keys.ts";
import type { StoragePaths } from "./storage.ts";
import type { VectorStore } from "./providers/vectors/types.ts";
import type { ChatModel, ModelOverride } from "./providers/llm/types.ts";
import type { Embedder } from "./providers/embedders/types.ts";
import type { EmbeddingService } from "./embedding/service.ts";
import type { DocumentStore } from "./documents/store.ts";
import type { ClientAssets } from "./pages/assets.ts";
import type { AuthLimits } from "./auth/rate_limit.ts";
import type { ProviderDeps } from "./providers/endpoints.ts";
import type { UrlGuardOptions } from "./http/url_guard.ts";
import type { LiveSync } from "./documents/live_sync.ts";
import type { EmbedProgress } from "./embedding/progress.ts";
import type { StreamRegistry } from "./http/streams.ts";
import type { ChatAdmission } from "./chat/admission.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { McpHub } from "./agents/mcp/hub.ts";

export interface Providers {
  /**
   * The chat model of the current settings, with a workspace's model override when it has one; throws
   * ProviderError when none is usable.
   */
  chatModel(override?: ModelOverride): ChatModel;
  /**
   * The active embedder: chat queries and new documents use it. After the embedder settings change it stays the
   * old one until the re-embedding job has embedded everything for the new one and switched.
   */
  embedder(): Embedder;
  /** The embedder a running re-embedding job embeds for, or null when none runs. */
  targetEmbedder(): Embedder | null;
  /** Re-embedding after an embedder change, its progress, and the native engine's model downloads. */
  embedding: EmbeddingService;
}

/** Everything a handler needs, built once in main.ts (or by the test app) and passed down. */
export interface Deps {
  config: Config;
  log: Logger;
  db: Database;
  paths: StoragePaths;
  keys: InstanceKeys;
  settings: SettingsService;
  vectors: VectorStore;
  documents: DocumentStore;
  providers: Providers;
  streams: StreamRegistry;
  /** Chat starts in progress, at most `config.chatStartsAtOnce`; the others wait their turn (chat/admission.ts). */
  chatStarts: ChatAdmission;
  assets: ClientAssets;
  limits: AuthLimits;
  /** How providers reach the network (tests point hosted providers at loopback fakes). */
  providerDeps: ProviderDeps;
  /** How links are fetched for a user (upload-link, live sync); tests pass a resolver and a fetch. */
  linkFetch?: UrlGuardOptions & { fetch?: typeof fetch };
  /** Live document sync (beta): the worker that re-fetches watched links, and its switch. */
  liveSync: LiveSync;
  /** Each workspace's documents being embedded, for `embed-progress`. */
  embedProgress: EmbedProgress;
  /** The background jobs, and whether this replica is the one elected to run the database-wide ones. */
  jobs: JobRunner;
  /** The admin's MCP servers for agents: started on demand, stopped when idle. */
  mcp: McpHub;
}
