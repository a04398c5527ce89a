// Zilliz Cloud (managed Milvus): the same RESTful API v2 as milvus.ts, at the cluster's public endpoint, with the
// cluster token or API key as the bearer token. Search is by vector only, as for Milvus.
import { openMilvusStore } from "./milvus.ts";
import type { RemoteOptions } from "./remote.ts";
import type { VectorStore } from "./types.ts";

export interface ZillizOptions extends RemoteOptions {
  /** The cluster's public endpoint, e.g. https://in03-….serverless.gcp-us-west1.cloud.zilliz.com. */
  endpoint: string;
  /** The API key, or the cluster's "user:password" token. */
  token: string;
}

export function openZillizStore(options: ZillizOptions): VectorStore {
  return openMilvusStore({ ...options, service: "Zilliz Cloud" });
}
