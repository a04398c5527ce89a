export interface Embedder {
  /** Identifies the model and its settings: vectors made by different fingerprints never mix. */
  readonly fingerprint: string;
  readonly modelId: string;
  /** The largest chunk, in characters, the splitter may hand this model. */
  readonly maxChunkLength: number;
  /** How many texts one call may carry; the caller batches. */
  readonly maxInputsPerCall: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
