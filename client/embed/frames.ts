/**
 * The chat stream as the widget reads it: server-sent events (`data: <json>` blocks, docs/api-compat.md#chat-
 * stream-frames) turned into checked frames. Written without dependencies to keep the widget small.
 */

/** A citation, reduced to what the widget shows. */
export interface WidgetSource {
  title: string;
  /** An http(s) address of the source, when it came from a web page. */
  url: string | null;
  text: string;
}

export type FrameType = "textResponseChunk" | "textResponse" | "finalizeResponseStream" | "abort";

/** One frame of the answer: the fields the widget uses, each checked. */
export interface WidgetFrame {
  type: FrameType;
  uuid: string | null;
  textResponse: string;
  sources: WidgetSource[];
  close: boolean;
  /** The text to show for an abort (the reference's `errorMsg` when it has one, else `error`). */
  error: string | null;
}

const TYPES: readonly string[] = ["textResponseChunk", "textResponse", "finalizeResponseStream", "abort"];

/**
 * Splits an event stream into the data of each event. Feed it the text as it arrives; it keeps an unfinished
 * line for the next feed. Lines are ended by \n, \r\n or \r; `data:` lines of one event are joined by \n;
 * comments and other fields are skipped.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private sawCr = false;

  feed(chunk: string): string[] {
    const events: string[] = [];
    let text = chunk;
    // A \r\n split across two chunks: the \n belongs to the line the \r already ended.
    if (this.sawCr && text.startsWith("\n")) text = text.slice(1);
    this.sawCr = text.endsWith("\r");
    this.buffer += text;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        if (this.data.length > 0) events.push(this.data.join("\n"));
        this.data = [];
      } else if (line.startsWith("data:")) {
        const value = line.slice(5);
        this.data.push(value.startsWith(" ") ? value.slice(1) : value);
      }
    }
    return events;
  }

  /** The last event, when the stream ended without the blank line after it. */
  end(): string[] {
    const events = this.feed("\n\n");
    this.buffer = "";
    return events;
  }
}

const str = (value: unknown): string | null => typeof value === "string" ? value : null;

/** A source's address when it came from a web page: `link://https://…` chunk sources or an http(s) url. */
function sourceUrl(raw: Record<string, unknown>): string | null {
  const candidates = [str(raw.chunkSource)?.replace(/^link:\/\//, ""), str(raw.url)];
  for (const candidate of candidates) {
    if (!candidate || !/^https?:\/\//i.test(candidate)) continue;
    try {
      return new URL(candidate).href;
    } catch {
      // not an address
    }
  }
  return null;
}

/** The citations of a frame or history entry; anything that is not an object with text is dropped. */
export function toSources(value: unknown): WidgetSource[] {
  if (!Array.isArray(value)) return [];
  const sources: WidgetSource[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) continue;
    const raw = item as Record<string, unknown>;
    const title = str(raw.title)?.trim() || str(raw.docSource)?.trim() || "";
    // A chunk's text begins with the document's metadata block (docs/api-compat.md#retrieval-pipeline).
    const text = (str(raw.text) ?? "").replace(/^<document_metadata>[\s\S]*?<\/document_metadata>\s*/, "");
    sources.push({ title, url: sourceUrl(raw), text });
  }
  return sources;
}

/** A frame from one event's parsed JSON, or null when it is not a chat frame (the widget skips those). */
export function toFrame(data: unknown): WidgetFrame | null {
  if (typeof data !== "object" || data === null) return null;
  const raw = data as Record<string, unknown>;
  const type = str(raw.type);
  if (type === null || !TYPES.includes(type)) return null;
  const error = type === "abort"
    ? (str(raw.errorMsg) || str(raw.error) || null)
    : (typeof raw.error === "string" && raw.error !== "" ? raw.error : null);
  return {
    type: type as FrameType,
    uuid: str(raw.uuid) ?? str(raw.id),
    textResponse: str(raw.textResponse) ?? "",
    sources: toSources(raw.sources),
    close: raw.close === true,
    error,
  };
}

/** An abort frame made by the widget itself (the request failed, the stream broke). */
export function abortFrame(error: string): WidgetFrame {
  return { type: "abort", uuid: null, textResponse: "", sources: [], close: true, error };
}
