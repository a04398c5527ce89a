import type { HistoryEntry } from "../../shared/api/chat.ts";
import {
  THREAD_EXPORT_CONTENT_TYPES,
  THREAD_EXPORT_EXTENSIONS,
  type ThreadExportType,
} from "../../shared/api/chat_export.ts";

/**
 * One workspace's or thread's chat as a file (the reference's chat-settings "Export": `exportChatToFile.js`):
 * PDF, Markdown, plain text, JSON or HTML. The assistant's thought chain (`<think>…</think>` and its kin) is left
 * out of the answer; JSON and HTML keep it apart as `reasoning`. Attached images are not carried.
 */

export interface TranscriptMessage {
  role: "user" | "assistant";
  content: string;
  /** Seconds since the epoch. */
  sentAt: number;
  reasoning: string | null;
}

export interface ExportMeta {
  /** The instance's name: its custom app name, else Lectern. */
  appName: string;
  workspaceName: string;
  threadName: string | null;
  exportedAt: Date;
  /** The instance's custom logo, when one is set (PNG and JPEG go into the PDF). */
  logo: { bytes: Uint8Array; type: string } | null;
}

export interface ExportFile {
  contentType: string;
  filename: string;
  body: Uint8Array;
}

const THOUGHT_TAGS = "thinking|think|thought|thought_chain";
const THOUGHT = new RegExp(`<(${THOUGHT_TAGS})[^>]*>([\\s\\S]*?)</(${THOUGHT_TAGS})\\s*>`, "gi");
const STRAY_TAGS = new RegExp(`</?(${THOUGHT_TAGS}|response|answer)[^>]*>`, "gi");

/** The thought chain of an answer, or null. */
export function thoughtOf(text: string): string | null {
  const parts = [...text.matchAll(THOUGHT)].map((match) => match[2].trim()).filter(Boolean);
  return parts.length > 0 ? parts.join("\n\n") : null;
}

/** An answer without its thought chain. */
export function withoutThought(text: string): string {
  return text.replace(THOUGHT, "").replace(STRAY_TAGS, "").trim();
}

/** The chat history (server/chat/history.ts) as the export's messages; empty messages are left out. */
export function transcriptOf(history: readonly HistoryEntry[]): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (const entry of history) {
    const raw = entry.content ?? "";
    const content = entry.role === "assistant" ? withoutThought(raw) : raw.trim();
    const reasoning = entry.role === "assistant" ? thoughtOf(raw) : null;
    if (!content && !reasoning) continue;
    messages.push({ role: entry.role, content, sentAt: entry.sentAt, reasoning });
  }
  return messages;
}

const stamp = (date: Date) => date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
const speaker = (message: TranscriptMessage) => message.role === "user" ? "You" : "Assistant";
const NO_MESSAGES = "This chat has no messages yet.";

function heading(meta: ExportMeta): string[] {
  return [meta.workspaceName, ...(meta.threadName ? [meta.threadName] : [])];
}

export function toMarkdown(messages: readonly TranscriptMessage[], meta: ExportMeta): string {
  const lines = [`**Workspace:** ${meta.workspaceName}  `];
  if (meta.threadName) lines.push(`**Thread:** ${meta.threadName}  `);
  lines.push(`**Exported:** ${stamp(meta.exportedAt)} from ${meta.appName}`, "");
  if (messages.length === 0) lines.push(`_${NO_MESSAGES}_`, "");
  for (const message of messages) {
    if (!message.content) continue;
    lines.push("---", "", `**${speaker(message)}**`, "", message.content, "");
  }
  return lines.join("\n");
}

export function toPlainText(messages: readonly TranscriptMessage[], meta: ExportMeta): string {
  const lines = [`Workspace: ${meta.workspaceName}`];
  if (meta.threadName) lines.push(`Thread: ${meta.threadName}`);
  lines.push(`Exported: ${stamp(meta.exportedAt)} from ${meta.appName}`, "");
  if (messages.length === 0) lines.push(NO_MESSAGES, "");
  for (const message of messages) {
    if (!message.content) continue;
    lines.push("─".repeat(60), "", `[${speaker(message)}]`, "", message.content, "");
  }
  return lines.join("\n");
}

export function toJson(messages: readonly TranscriptMessage[], meta: ExportMeta): string {
  return JSON.stringify(
    {
      workspace: meta.workspaceName,
      thread: meta.threadName,
      exported: meta.exportedAt.toISOString(),
      messages: messages.filter((message) => message.content).map((message) => ({
        role: message.role,
        content: message.content,
        sentAt: new Date(message.sentAt * 1000).toISOString(),
        ...(message.reasoning ? { reasoning: message.reasoning } : {}),
      })),
    },
    null,
    2,
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A self-contained page (no script, no outside resource), light or dark as the reader's system is. */
export function toHtml(messages: readonly TranscriptMessage[], meta: ExportMeta): string {
  const title = escapeHtml(heading(meta).join(" — "));
  const items = messages.map((message) => {
    const reasoning = message.reasoning
      ? `<details><summary>Show reasoning</summary><div class="reasoning">${
        escapeHtml(message.reasoning)
      }</div></details>`
      : "";
    return `<article class="message ${message.role}"><div class="who">${speaker(message)}</div>${reasoning}` +
      `<div class="text">${escapeHtml(message.content)}</div></article>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${title} — Chat export</title>
<style>
:root { color-scheme: light dark; --bg: #f7f7f5; --fg: #1d2320; --muted: #5d6661; --user: #2f5d50; --bot: #e7ebe8; }
@media (prefers-color-scheme: dark) { :root { --bg: #171a19; --fg: #eef1ef; --muted: #a3aca7; --user: #3f7a69; --bot: #262b29; } }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
main { max-width: 48rem; margin: 0 auto; padding: 2rem 1rem; }
header { border-bottom: 1px solid var(--muted); margin-bottom: 1.5rem; }
header p, footer { color: var(--muted); font-size: 0.85rem; }
.message { border-radius: 1rem; padding: 0.75rem 1rem; margin: 0 0 1rem; max-width: 85%; }
.message.user { background: var(--user); color: #fff; margin-left: auto; }
.message.assistant { background: var(--bot); }
.who { font-size: 0.75rem; font-weight: 600; opacity: 0.8; }
.text, .reasoning { white-space: pre-wrap; overflow-wrap: anywhere; }
.reasoning { font-size: 0.85rem; opacity: 0.8; }
footer { text-align: center; border-top: 1px solid var(--muted); padding-top: 1rem; }
</style>
</head>
<body>
<main>
<header><h1>${title}</h1><p>Exported ${escapeHtml(stamp(meta.exportedAt))}</p></header>
${items.length > 0 ? items.join("\n") : `<p>${NO_MESSAGES}</p>`}
<footer>Exported from ${escapeHtml(meta.appName)}</footer>
</main>
</body>
</html>
`;
}

/**
 * PDF's standard fonts only hold the Windows-1252 characters: the others are written as "?" (typographic quotes
 * and dashes are kept, since that code page has them).
 */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export function pdfText(text: string): string {
  let out = "";
  for (const character of text.normalize("NFC")) {
    const code = character.codePointAt(0)!;
    if (character === "\n" || character === "\t") out += character;
    else if (
      (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(character)
    ) {
      out += character;
    } else if (code === 0x2500) out += "-";
    else if (code >= 0x20) out += "?";
  }
  return out;
}

const isPng = (bytes: Uint8Array) => bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e;
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8;

/**
 * A branded PDF (pdfkit): the instance's logo (PNG or JPEG) or name at the top, the workspace and thread, then
 * each message; every page carries "Exported from <app name>" and its number at the bottom.
 */
export async function toPdf(messages: readonly TranscriptMessage[], meta: ExportMeta): Promise<Uint8Array> {
  // Loaded on the first PDF export: pdfkit and its fonts cost the server about 1.5 s and 35 MiB at start.
  const { default: PDFDocument } = await import("pdfkit");
  const document = new PDFDocument({
    size: "A4",
    margins: { top: 56, bottom: 64, left: 56, right: 56 },
    bufferPages: true,
    info: {
      Title: pdfText(`${heading(meta).join(" - ")} - Chat export`),
      Creator: pdfText(meta.appName),
      Producer: pdfText(meta.appName),
    },
  });
  const chunks: Uint8Array[] = [];
  document.on("data", (chunk: Uint8Array) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    document.on("end", () => resolve());
    document.on("error", reject);
  });
  const width = document.page.width - 112;
  const logo = meta.logo && (isPng(meta.logo.bytes) || isJpeg(meta.logo.bytes)) ? meta.logo.bytes : null;
  let drewLogo = false;
  if (logo) {
    try {
      document.image(logo.buffer.slice(logo.byteOffset, logo.byteOffset + logo.byteLength) as ArrayBuffer, {
        fit: [160, 40],
      });
      document.moveDown(0.5);
      drewLogo = true;
    } catch {
      // An image pdfkit cannot read: the name stands instead.
    }
  }
  if (!drewLogo) {
    document.font("Helvetica-Bold").fontSize(18).fillColor("#2f5d50").text(pdfText(meta.appName), { width });
  }
  document.moveDown(0.5);
  document.font("Helvetica-Bold").fontSize(14).fillColor("#1d2320").text(pdfText(meta.workspaceName), {
    width,
  });
  if (meta.threadName) {
    document.font("Helvetica").fontSize(12).fillColor("#1d2320").text(pdfText(meta.threadName), { width });
  }
  document.font("Helvetica").fontSize(9).fillColor("#5d6661").text(`Exported ${stamp(meta.exportedAt)}`, {
    width,
  });
  document.moveDown(1);
  if (messages.length === 0) {
    document.font("Helvetica-Oblique").fontSize(11).fillColor("#5d6661").text(NO_MESSAGES, { width });
  }
  for (const message of messages) {
    if (!message.content) continue;
    document.font("Helvetica-Bold").fontSize(10).fillColor(message.role === "user" ? "#2f5d50" : "#5d6661")
      .text(speaker(message), { width });
    document.moveDown(0.2);
    document.font("Helvetica").fontSize(11).fillColor("#1d2320").text(pdfText(message.content), {
      width,
      lineGap: 2,
    });
    document.moveDown(0.9);
  }
  const range = document.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    document.switchToPage(index);
    const bottom = document.page.height - 40;
    // Writing inside the bottom margin must not open a new page.
    const margin = document.page.margins.bottom;
    document.page.margins.bottom = 0;
    document.font("Helvetica-Oblique").fontSize(8).fillColor("#8a918d").text(
      pdfText(`Exported from ${meta.appName} - page ${index + 1} of ${range.count}`),
      56,
      bottom,
      { width, align: "right", lineBreak: false },
    );
    document.page.margins.bottom = margin;
  }
  document.end();
  await ended;
  const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** A file name for the download: `<app name> Export - <date>.<ext>`, in plain ASCII. */
export function exportFilename(meta: ExportMeta, type: ThreadExportType): string {
  const name = meta.appName.normalize("NFKD").replace(/[^\w .-]+/g, "").trim() || "Lectern";
  const date = meta.exportedAt.toISOString().slice(0, 10);
  return `${name} Export - ${date}.${THREAD_EXPORT_EXTENSIONS[type]}`;
}

export async function exportThread(
  history: readonly HistoryEntry[],
  meta: ExportMeta,
  type: ThreadExportType,
): Promise<ExportFile> {
  const messages = transcriptOf(history);
  const encode = (text: string) => new TextEncoder().encode(text);
  const body = type === "pdf" ? await toPdf(messages, meta) : encode(
    type === "markdown"
      ? toMarkdown(messages, meta)
      : type === "plaintext"
      ? toPlainText(messages, meta)
      : type === "json"
      ? toJson(messages, meta)
      : toHtml(messages, meta),
  );
  return { contentType: THREAD_EXPORT_CONTENT_TYPES[type], filename: exportFilename(meta, type), body };
}
