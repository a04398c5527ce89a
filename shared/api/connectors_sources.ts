import * as z from "zod";
import { jsonObject } from "./body.ts";

// The options of the YouTube, website and Confluence data connectors (spec 02 §3 and §7): the bodies of
// `POST /api/ext/youtube/transcript`, `/api/ext/website-depth` and `/api/ext/confluence`. The client's forms
// check the same rules before they post.

/** A field that is text (trimmed), or undefined when it is missing, empty or anything else. */
const optionalText = z.unknown().optional().transform((value) =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
);

// ---------------------------------------------------------------------------------------------------------
// YouTube transcript

/** The reference's answer to a link that is not a YouTube video. */
export const YOUTUBE_URL_MESSAGE = "Invalid URL. Should be youtu.be or youtube.com/watch.";

const YOUTUBE_VIDEO =
  /^(?:https?:\/\/)?(?:www\.|m\.|music\.)?(?:youtu\.be\/|youtube\.com\/(?:embed\/|v\/|live\/|shorts\/|watch\?(?:[^#]*&)?v=))([\w-]{11})(?:[?&#/].*)?$/i;

/**
 * The 11-character id of the video a YouTube link names (`youtube.com/watch?v=…`, `youtu.be/…`, `/embed/`,
 * `/shorts/`, `/live/`, with or without the scheme and `www.`/`m.`/`music.`), or null.
 */
export function youtubeVideoId(link: string): string | null {
  const match = YOUTUBE_VIDEO.exec(link.trim());
  return match ? match[1] : null;
}

/** A BCP 47-like language code (`en`, `pt-BR`, `zh-Hans`), as YouTube names its caption tracks. */
export const LANGUAGE_CODE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

export const YouTubeOptions = jsonObject({
  url: z.unknown().transform((value, context) => {
    const link = typeof value === "string" ? value.trim() : "";
    if (!youtubeVideoId(link)) {
      context.addIssue({ code: "custom", message: YOUTUBE_URL_MESSAGE });
      return z.NEVER;
    }
    return link;
  }),
  /** The caption language; without it English, else the video's first track. */
  language: optionalText.refine(
    (value) => value === undefined || LANGUAGE_CODE.test(value),
    "The language must be a language code such as en, fr or pt-BR.",
  ),
});
export type YouTubeOptions = z.output<typeof YouTubeOptions>;

// ---------------------------------------------------------------------------------------------------------
// Website depth crawl

export const CRAWL_DEPTH_MAX = 5;
export const CRAWL_PAGES_MAX = 500;
export const CRAWL_DEFAULTS = { depth: 1, maxLinks: 20 } as const;

/** A whole number from a number or its text (the reference's form posts `parseInt` of the inputs). */
const wholeNumber = (fallback: number, min: number, max: number, message: string) =>
  z.unknown().optional().transform((value, context) => {
    if (value === undefined || value === null || value === "") return fallback;
    const number = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
    if (!Number.isInteger(number) || number < min || number > max) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return number;
  });

export const WEBSITE_URL_MESSAGE = "The website URL must be an http or https address.";

export const WebsiteOptions = jsonObject({
  url: z.unknown().transform((value, context) => {
    const text = typeof value === "string" ? value.trim() : "";
    let url: URL | null = null;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    } catch {
      url = null;
    }
    if (!text || !url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
      context.addIssue({ code: "custom", message: WEBSITE_URL_MESSAGE });
      return z.NEVER;
    }
    return url.href;
  }),
  depth: wholeNumber(
    CRAWL_DEFAULTS.depth,
    1,
    CRAWL_DEPTH_MAX,
    `The crawl depth must be a whole number from 1 to ${CRAWL_DEPTH_MAX}.`,
  ),
  maxLinks: wholeNumber(
    CRAWL_DEFAULTS.maxLinks,
    1,
    CRAWL_PAGES_MAX,
    `The maximum pages must be a whole number from 1 to ${CRAWL_PAGES_MAX}.`,
  ),
});
export type WebsiteOptions = z.output<typeof WebsiteOptions>;

// ---------------------------------------------------------------------------------------------------------
// Confluence

/** The reference's sentences. */
export const CONFLUENCE_MESSAGES = {
  credentials:
    "You need either a personal access token (PAT), or a username and access token to use the Confluence connector.",
  baseUrl: "Provided base URL is not a valid URL.",
  spaceKey: "You need to provide a Confluence space key.",
} as const;

/** `true` unless the body says `false` (the reference's default is a cloud site). */
const cloudFlag = z.unknown().optional().transform((value) => !(value === false || value === "false"));

export const ConfluenceOptions = jsonObject({
  baseUrl: z.unknown().transform((value, context) => {
    const text = typeof value === "string" ? value.trim() : "";
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      context.addIssue({ code: "custom", message: CONFLUENCE_MESSAGES.baseUrl });
      return z.NEVER;
    }
    return url.href;
  }),
  spaceKey: optionalText.refine((value) => value !== undefined, CONFLUENCE_MESSAGES.spaceKey),
  username: optionalText,
  accessToken: optionalText,
  /** Server and Data Center: a personal access token, sent as a bearer token. */
  personalAccessToken: optionalText,
  cloud: cloudFlag,
}).refine(
  (options) =>
    Boolean(options.personalAccessToken) || Boolean(options.username && options.accessToken) ||
    // Server and Data Center take a personal access token in `accessToken` without a username.
    (!options.cloud && Boolean(options.accessToken)),
  { message: CONFLUENCE_MESSAGES.credentials },
).transform((options) => ({ ...options, spaceKey: options.spaceKey as string }));
export type ConfluenceOptions = z.output<typeof ConfluenceOptions>;
