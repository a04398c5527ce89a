/**
 * The widget's options, read from its script tag's `data-*` attributes (the reference's widget, anythingllm-embed,
 * names them the same: data-embed-id, data-base-api-url, data-chat-icon …). Every value is checked here, so the
 * rest of the widget only meets values that are safe to use: URLs are http(s), colours and lengths match a
 * strict pattern (they go into CSS), texts are plain strings (they are only ever set as text).
 */

export const CHAT_ICONS = ["plus", "chatBubble", "support", "search2", "search", "magic"] as const;
export type ChatIcon = typeof CHAT_ICONS[number];

export const POSITIONS = ["bottom-right", "bottom-left", "top-right", "top-left"] as const;
export type Position = typeof POSITIONS[number];

export const THEMES = ["auto", "light", "dark"] as const;
export type Theme = typeof THEMES[number];

export interface WidgetOptions {
  embedId: string;
  /** Without a trailing slash: `http://host/api/embed`. */
  baseApiUrl: string;
  // Sent with each chat; the server uses them only when the embed allows the override.
  prompt: string | null;
  model: string | null;
  temperature: number | null;
  username: string | null;
  // Looks.
  chatIcon: ChatIcon;
  buttonColor: string | null;
  userBgColor: string | null;
  assistantBgColor: string | null;
  brandImageUrl: string | null;
  assistantIcon: string | null;
  assistantName: string | null;
  greeting: string | null;
  position: Position;
  windowWidth: string | null;
  windowHeight: string | null;
  /** Pixels. */
  textSize: number | null;
  noHeader: boolean;
  theme: Theme;
  language: string;
  sendMessageText: string | null;
  resetChatText: string | null;
  noSponsor: boolean;
  sponsorText: string | null;
  sponsorLink: string | null;
  supportEmail: string | null;
  defaultMessages: string[];
  openOnLoad: boolean;
  showThoughts: boolean;
}

export type ParsedOptions = { ok: true; options: WidgetOptions; ignored: string[] } | {
  ok: false;
  error: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl()/hsla() with plain numbers, or a colour name. */
const COLOR =
  /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgb|rgba|hsl|hsla)\(\s*[\d.]+%?(\s*[,\s]\s*[\d.]+%?){2}(\s*[,/]\s*[\d.]+%?)?\s*\)|[a-z]{3,20})$/i;
const LENGTH = /^\d{1,4}(\.\d{1,2})?(px|rem|em|vh|vw|dvh|dvw|%)$/;
const EMAIL = /^[^\s@<>"']{1,64}@[^\s@<>"']{1,255}$/;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i;
const MAX_TEXT = 500;

/** An http(s) URL as a string, else null. */
export function httpUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** An image the widget may show: an http(s) URL or a data: URL of a raster image (never SVG). */
export function imageUrl(value: string | undefined): string | null {
  if (!value) return null;
  if (/^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i.test(value.trim())) return value.trim();
  return httpUrl(value);
}

function text(value: string | undefined): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed.slice(0, MAX_TEXT);
}

/** The reference's flags are "on"/"true"/present; "off"/"false" turn them off. */
function flag(value: string | undefined): boolean {
  if (value === undefined) return false;
  return !/^(off|false|0|no)$/i.test(value.trim());
}

function oneOf<T extends string>(choices: readonly T[], value: string | undefined, fallback: T): T {
  const found = choices.find((choice) => choice.toLowerCase() === value?.trim().toLowerCase());
  return found ?? fallback;
}

/** "Hi,What do you sell?" → two suggestions; empty parts are dropped (the reference refuses the whole list). */
export function defaultMessages(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(",").map((part) => part.trim()).filter((part) => part !== "").slice(0, 10)
    .map((part) => part.slice(0, MAX_TEXT));
}

/**
 * The options from a script tag's dataset (`data-embed-id` arrives as `embedId`). The embed id and the API URL
 * are required; any other value that is not valid is left at its default and named in `ignored`.
 */
export function parseOptions(data: Record<string, string | undefined>): ParsedOptions {
  const embedId = data.embedId?.trim() ?? "";
  if (!UUID.test(embedId)) {
    return { ok: false, error: "The chat widget needs data-embed-id: the embed's id, a UUID." };
  }
  const base = httpUrl(data.baseApiUrl);
  if (!base) {
    return {
      ok: false,
      error:
        "The chat widget needs data-base-api-url: the server's embed address, such as https://host/api/embed.",
    };
  }
  const ignored: string[] = [];
  const checked = <T>(
    name: string,
    value: string | undefined,
    parse: (value: string) => T | null,
  ): T | null => {
    if (value === undefined || value.trim() === "") return null;
    const parsed = parse(value.trim());
    if (parsed === null) ignored.push(name);
    return parsed;
  };
  const color = (name: string) => checked(name, data[name], (value) => COLOR.test(value) ? value : null);
  const length = (name: string) => checked(name, data[name], (value) => LENGTH.test(value) ? value : null);
  const temperature = checked("temperature", data.temperature, (value) => {
    const number = Number(value);
    return Number.isFinite(number) && number >= 0 && number <= 2 ? number : null;
  });
  const textSize = checked("textSize", data.textSize, (value) => {
    const number = Number(value.replace(/px$/, ""));
    return Number.isFinite(number) && number >= 8 && number <= 40 ? number : null;
  });
  const language = checked("language", data.language, (value) => LANGUAGE.test(value) ? value : null);
  for (
    const [name, choices] of [["chatIcon", CHAT_ICONS], ["position", POSITIONS], ["theme", THEMES]] as const
  ) {
    const value = data[name];
    if (
      value !== undefined &&
      !(choices as readonly string[]).some((c) => c.toLowerCase() === value.trim().toLowerCase())
    ) {
      ignored.push(name);
    }
  }
  return {
    ok: true,
    ignored,
    options: {
      embedId: embedId.toLowerCase(),
      baseApiUrl: base.replace(/\/+$/, ""),
      prompt: text(data.prompt),
      model: text(data.model),
      temperature,
      username: text(data.username),
      chatIcon: oneOf(CHAT_ICONS, data.chatIcon, "plus"),
      buttonColor: color("buttonColor"),
      userBgColor: color("userBgColor"),
      assistantBgColor: color("assistantBgColor"),
      brandImageUrl: checked("brandImageUrl", data.brandImageUrl, imageUrl),
      assistantIcon: checked("assistantIcon", data.assistantIcon, imageUrl),
      assistantName: text(data.assistantName),
      greeting: text(data.greeting),
      position: oneOf(POSITIONS, data.position, "bottom-right"),
      windowWidth: length("windowWidth"),
      windowHeight: length("windowHeight"),
      textSize,
      noHeader: flag(data.noHeader),
      theme: oneOf(THEMES, data.theme, "auto"),
      language: language ?? "en",
      sendMessageText: text(data.sendMessageText),
      resetChatText: text(data.resetChatText),
      noSponsor: flag(data.noSponsor),
      sponsorText: text(data.sponsorText),
      sponsorLink: checked("sponsorLink", data.sponsorLink, httpUrl),
      supportEmail: checked("supportEmail", data.supportEmail, (value) => EMAIL.test(value) ? value : null),
      defaultMessages: defaultMessages(data.defaultMessages),
      openOnLoad: data.openOnLoad !== undefined && /^(on|true|1|yes)$/i.test(data.openOnLoad.trim()),
      showThoughts: flag(data.showThoughts),
    },
  };
}

/** Black or white text, whichever reads better on a background colour given as hex; white for other forms. */
export function readableOn(color: string): "#000" | "#fff" {
  const match = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color);
  if (!match) return "#fff";
  let hex = match[1];
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((digit) => digit + digit).join("");
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L+0.05)/0.05 against contrast with white 1.05/(L+0.05).
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#000" : "#fff";
}
