import type { DataHandling, SentData } from "../../../shared/providers/data_handling.ts";
import { embedder, VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { TRANSCRIPTION_PROVIDERS } from "../../../shared/providers/audio_catalog.ts";
import type { SetupResults } from "./setup.ts";

export type PrivacyArea = "llm" | "embedder" | "vectorDb" | "transcription";

/** How far an address is: this machine (loopback), the admin's own network, or the internet. */
export type Reach = "thisMachine" | "privateNetwork" | "internet";

/** Where a provider's data goes, as the screen words it. */
export type Destination =
  /** Built into Lectern: the data stays on the server. */
  | { kind: "thisMachine" }
  /** A host: the vendor's fixed API host, or the host of the URL the admin configured. */
  | { kind: "host"; host: string; reach: Reach; vendor: boolean }
  /** A hosted service whose host is not fixed (it depends on the account or region). */
  | { kind: "vendor" }
  /** The provider sends to a configured address that is not set (or is not a URL). */
  | { kind: "notSet"; key: string }
  /** Nothing chosen, or a provider Lectern knows nothing about. */
  | { kind: "unknown" };

export type PrivacyRow = {
  area: PrivacyArea;
  id: string | null;
  name: string | null;
  /** Whether the provider is in the catalog (its facts below are known). */
  known: boolean;
  receives: readonly SentData[];
  destination: Destination;
  policyUrl: string | null;
};

type CatalogRow = { name: string; dataHandling: DataHandling } | undefined;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * How far a host name is. Loopback names and addresses are this machine; private, link-local and unique-local
 * addresses, names without a dot (a container or LAN name) and the .local/.lan/.internal/.home.arpa names are
 * the admin's network; anything else is taken to be on the internet.
 */
export function reachOf(hostname: string): Reach {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "thisMachine";
  const v4 = IPV4.exec(name.replace(/^::ffff:/, ""));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 127 || a === 0) return "thisMachine";
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "privateNetwork";
    if (a === 169 && b === 254) return "privateNetwork";
    if (a === 100 && b >= 64 && b <= 127) return "privateNetwork";
    return "internet";
  }
  if (name.includes(":")) {
    if (name === "::1" || name === "::") return "thisMachine";
    if (/^f[cd][0-9a-f]{2}:/.test(name) || /^fe[89ab][0-9a-f]:/.test(name)) return "privateNetwork";
    return "internet";
  }
  if (!name.includes(".")) return "privateNetwork";
  if (/\.(local|lan|internal|home\.arpa)$/.test(name)) return "privateNetwork";
  return "internet";
}

/** The host (with its port) of a configured http(s) URL, or null when it is not one. */
export function hostOf(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.host : null;
  } catch {
    return null;
  }
}

/** Where a catalog row's data goes, with the instance's settings filling in configured addresses. */
export function destinationOf(handling: DataHandling, setup: Record<string, unknown>): Destination {
  const target = handling.destination;
  if (target.to === "this-machine") return { kind: "thisMachine" };
  if (target.to === "vendor") {
    return target.host
      ? { kind: "host", host: target.host, reach: reachOf(target.host), vendor: true }
      : { kind: "vendor" };
  }
  const host = hostOf(setup[target.key]);
  if (!host) return { kind: "notSet", key: target.key };
  return { kind: "host", host, reach: reachOf(new URL(`http://${host}`).hostname), vendor: false };
}

function row(
  area: PrivacyArea,
  id: string | null,
  entry: CatalogRow,
  setup: SetupResults,
): PrivacyRow {
  if (!entry) {
    return {
      area,
      id,
      name: id,
      known: false,
      receives: [],
      destination: { kind: "unknown" },
      policyUrl: null,
    };
  }
  return {
    area,
    id,
    name: entry.name,
    known: true,
    receives: entry.dataHandling.receives,
    destination: destinationOf(entry.dataHandling, setup),
    policyUrl: entry.dataHandling.policyUrl ?? null,
  };
}

function transcriptionRow(id: string): CatalogRow {
  const found = TRANSCRIPTION_PROVIDERS.find((entry) => entry.id === id);
  return found?.dataHandling ? { name: found.name, dataHandling: found.dataHandling } : undefined;
}

/**
 * The services the privacy screen and the data-handling step describe: the language model, the embedding
 * engine (openai when unset, as the reference) and the vector database (lancedb when unset), each from its
 * catalog row: its name, what it receives, where that goes and its vendor's privacy policy; and the
 * transcription provider of audio and video uploads (the built-in model when unset, as the reference).
 */
export function privacyRows(setup: SetupResults): PrivacyRow[] {
  const llmId = setup.LLMProvider;
  const embedderId = setup.EmbeddingEngine ?? "openai";
  const vectorDbId = setup.VectorDB ?? "lancedb";
  const transcriptionId = typeof setup.WhisperProvider === "string" ? setup.WhisperProvider : "local";
  return [
    row("llm", llmId, llmId ? llmProvider(llmId) : undefined, setup),
    row("embedder", embedderId, embedder(embedderId), setup),
    row("vectorDb", vectorDbId, VECTOR_DBS.find((database) => database.id === vectorDbId), setup),
    row("transcription", transcriptionId, transcriptionRow(transcriptionId), setup),
  ];
}

/** The locale key (under settings.privacy.where) that words a destination. */
export function destinationKey(destination: Destination): string {
  switch (destination.kind) {
    case "host":
      return destination.vendor ? "vendorHost" : `host.${destination.reach}`;
    default:
      return destination.kind;
  }
}

/**
 * The closing sentence of a row (under settings.privacy.note): nothing leaves the server; the vendor's policy
 * applies; the terms of whoever runs the configured service apply (or, on this machine, nothing leaves it);
 * nothing chosen; no facts known.
 */
export function noteKey(row: PrivacyRow): string {
  if (row.id === null) return `unset.${row.area}`;
  if (!row.known) return "unknown";
  const destination = row.destination;
  if (destination.kind === "thisMachine") return "staysHere";
  if (destination.kind === "host" && !destination.vendor && destination.reach === "thisMachine") {
    return "staysHere";
  }
  if (destination.kind === "host" && !destination.vendor) return "theirTerms";
  if (destination.kind === "notSet") return "theirTerms";
  return row.policyUrl ? "policy" : "vendorTerms";
}
