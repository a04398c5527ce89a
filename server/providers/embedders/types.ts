export interface Embedder {
  /** Identifies the model and its settings: vectors made by different fingerprints never mix. */
  readonly fingerprint: string;
  readonly modelId: string;
  /** The largest chunk, in characters, the splitter may hand this model. */
  readonly maxChunkLength: number;
  /** How many texts one call may carry; the caller batches. */
  readonly maxInputsPerCall: number;
  /** Embeds document chunks (with the model's passage prefix or input type, when it has one). */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /**
   * Embeds a search query. Models trained with separate query and passage forms (nomic, e5, Cohere, Voyage)
   * rank better when the query is marked as one; the others embed it like a chunk.
   */
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
}

/** Where the instance's embedder settings come from: the live settings, or the active embedder's snapshot. */
export interface SettingsView {
  value(key: string): string | undefined;
}
