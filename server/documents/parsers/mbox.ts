import { htmlToMarkdown } from "./html.ts";
import { readText } from "./plain.ts";
import type { ParsedDocument, ParseInput } from "./types.ts";

/**
 * Messages of an mbox file. A message starts at a `From ` line at the top of the file or after a blank line;
 * `>From ` lines inside bodies are unescaped (mboxrd).
 */
export function splitMbox(text: string): string[] {
  const messages: string[] = [];
  let current: string[] | null = null;
  let previousBlank = true;
  for (const line of text.split("\n")) {
    if (line.startsWith("From ") && previousBlank) {
      if (current) messages.push(current.join("\n"));
      current = [];
    } else if (current) {
      current.push(line.replace(/^>(>*From )/, "$1"));
    } else if (line.trim() !== "") {
      // Not an mbox separator first: the whole file is one message (an .eml renamed, say).
      current = [line];
    }
    previousBlank = line.trim() === "";
  }
  if (current) messages.push(current.join("\n"));
  return messages.filter((message) => message.trim() !== "");
}

function address(value: { name?: string; address?: string } | undefined): string {
  if (!value) return "";
  if (value.name && value.address) return `${value.name} <${value.address}>`;
  return value.name || value.address || "";
}

/** Each message as `Subject/From/To/Date` lines and its body, separated by rules. */
export async function parseMbox(input: ParseInput): Promise<ParsedDocument> {
  const { default: PostalMime } = await import("postal-mime");
  const raw = readText(input);
  const sections: string[] = [];
  const senders = new Set<string>();
  for (const message of splitMbox(raw)) {
    let email;
    try {
      email = await PostalMime.parse(message.replace(/\n/g, "\r\n"));
    } catch {
      continue;
    }
    const from = address(email.from);
    if (from) senders.add(from);
    let body = (email.text ?? "").trim();
    if (!body && email.html) body = (await htmlToMarkdown(email.html, { readable: false })).markdown;
    const to = (email.to ?? []).map(address).filter(Boolean).join(", ");
    const header = [
      email.subject ? `Subject: ${email.subject}` : "",
      from ? `From: ${from}` : "",
      to ? `To: ${to}` : "",
      email.date ? `Date: ${email.date}` : "",
    ].filter(Boolean).join("\n");
    if (header || body) sections.push(`${header}\n\n${body.replace(/\r\n?/g, "\n")}`.trim());
  }
  return {
    text: sections.join("\n\n---\n\n"),
    docAuthor: senders.size === 1
      ? [...senders][0]
      : senders.size > 1
      ? `${senders.size} senders`
      : "Unknown",
    description: `${sections.length} email message${sections.length === 1 ? "" : "s"}`,
    docSource: "an mbox file uploaded by the user.",
  };
}
