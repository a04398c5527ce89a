/**
 * What a provider of the catalogs is sent and where it goes: facts kept on each catalog row, which the privacy
 * screen and the onboarding data-handling step read (client/features/settings/privacy.ts).
 */

/** The kinds of data Lectern hands to a provider. */
export const SENT_DATA = [
  /** The user's message and the workspace's system prompt. */
  "prompts",
  /** Earlier messages of the chat or thread. */
  "chatHistory",
  /** Passages of the workspace's documents found for the question, and pinned documents. */
  "retrievedText",
  /** Images and files attached in the chat. */
  "attachments",
  /** The text of uploaded documents, chunk by chunk, to be embedded. */
  "documentText",
  /** The user's questions, embedded to search the documents. */
  "queries",
  /** The vectors of the chunks and questions. */
  "vectors",
  /** The chunks' text and metadata (title, source), stored beside their vectors. */
  "chunkText",
  /** Recorded audio, to be transcribed. */
  "audio",
] as const;
export type SentData = (typeof SENT_DATA)[number];

/**
 * Where a provider's data goes: nowhere beyond this machine (built into Lectern), a vendor's hosted API (its
 * host where it is fixed), or the address the admin configured in a setting (its host is shown).
 */
export type DataDestination =
  | { to: "this-machine" }
  | { to: "vendor"; host?: string }
  | { to: "endpoint"; key: string };

export interface DataHandling {
  receives: readonly SentData[];
  destination: DataDestination;
  /** The vendor's privacy policy, where it has one. */
  policyUrl?: string;
}

/** What a language model is sent for every chat answer. */
export const LLM_RECEIVES: readonly SentData[] = ["prompts", "chatHistory", "retrievedText", "attachments"];
/** What an embedding engine is sent: documents when they are added, questions when they are asked. */
export const EMBEDDER_RECEIVES: readonly SentData[] = ["documentText", "queries"];
/** What a vector database stores and searches. */
export const VECTOR_DB_RECEIVES: readonly SentData[] = ["vectors", "chunkText"];
/** What a transcription provider is sent. */
export const TRANSCRIPTION_RECEIVES: readonly SentData[] = ["audio"];

export const THIS_MACHINE: DataDestination = { to: "this-machine" };
export const vendor = (host?: string): DataDestination => (host ? { to: "vendor", host } : { to: "vendor" });
export const endpoint = (key: string): DataDestination => ({ to: "endpoint", key });
