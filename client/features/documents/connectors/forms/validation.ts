import {
  CRAWL_DEFAULTS,
  CRAWL_DEPTH_MAX,
  CRAWL_PAGES_MAX,
  LANGUAGE_CODE,
  youtubeVideoId,
} from "../../../../../shared/api/connectors_sources.ts";

// What the YouTube, website and Confluence forms post (spec 02 §3), and the i18n keys of the problems found
// before posting; the server checks the same rules (shared/api/connectors_sources.ts).

export { CRAWL_DEFAULTS, CRAWL_DEPTH_MAX, CRAWL_PAGES_MAX };

/** Field name → the i18n key of its problem. Empty when the form may be posted. */
export type Problems<Field extends string> = Partial<Record<Field, string>>;

const PREFIX = "connectorForms";

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

// YouTube ----------------------------------------------------------------------------------------------------

export interface YouTubeValues {
  url: string;
  language: string;
}

export interface YouTubePayload {
  url: string;
  language?: string;
}

export function youtubeProblems(values: YouTubeValues): Problems<keyof YouTubeValues> {
  const problems: Problems<keyof YouTubeValues> = {};
  if (!youtubeVideoId(values.url)) problems.url = `${PREFIX}.youtube.problems.url`;
  if (values.language.trim() && !LANGUAGE_CODE.test(values.language.trim())) {
    problems.language = `${PREFIX}.youtube.problems.language`;
  }
  return problems;
}

export function youtubePayload(values: YouTubeValues): YouTubePayload {
  const language = values.language.trim();
  return { url: values.url.trim(), ...(language ? { language } : {}) };
}

// Website ----------------------------------------------------------------------------------------------------

export interface WebsiteValues {
  url: string;
  depth: string;
  maxLinks: string;
}

export interface WebsitePayload {
  url: string;
  depth: number;
  maxLinks: number;
}

const wholeIn = (text: string, min: number, max: number) => {
  const number = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(number) && number >= min && number <= max;
};

export function websiteProblems(values: WebsiteValues): Problems<keyof WebsiteValues> {
  const problems: Problems<keyof WebsiteValues> = {};
  if (!isWebAddress(values.url)) problems.url = `${PREFIX}.website.problems.url`;
  if (!wholeIn(values.depth, 1, CRAWL_DEPTH_MAX)) problems.depth = `${PREFIX}.website.problems.depth`;
  if (!wholeIn(values.maxLinks, 1, CRAWL_PAGES_MAX)) {
    problems.maxLinks = `${PREFIX}.website.problems.maxLinks`;
  }
  return problems;
}

export function websitePayload(values: WebsiteValues): WebsitePayload {
  return {
    url: values.url.trim(),
    depth: Number(values.depth.trim()),
    maxLinks: Number(values.maxLinks.trim()),
  };
}

// Confluence -------------------------------------------------------------------------------------------------

export interface ConfluenceValues {
  /** "cloud": Atlassian Cloud; "server": self-hosted Server or Data Center. */
  deployment: "cloud" | "server";
  baseUrl: string;
  spaceKey: string;
  /** "username": a username (email) and API token; "personalToken": a personal access token. */
  authType: "username" | "personalToken";
  username: string;
  accessToken: string;
  personalAccessToken: string;
}

export interface ConfluencePayload {
  baseUrl: string;
  spaceKey: string;
  username: string;
  accessToken: string;
  cloud: boolean;
  /** Sent, as the reference sends it, when the personal access token is chosen. */
  personalAccessToken?: string;
}

export function confluenceProblems(values: ConfluenceValues): Problems<keyof ConfluenceValues> {
  const problems: Problems<keyof ConfluenceValues> = {};
  if (!isWebAddress(values.baseUrl)) problems.baseUrl = `${PREFIX}.confluence.problems.baseUrl`;
  if (!values.spaceKey.trim()) problems.spaceKey = `${PREFIX}.confluence.problems.spaceKey`;
  if (values.authType === "username") {
    if (!values.username.trim()) problems.username = `${PREFIX}.confluence.problems.username`;
    if (!values.accessToken.trim()) problems.accessToken = `${PREFIX}.confluence.problems.accessToken`;
  } else if (!values.personalAccessToken.trim()) {
    problems.personalAccessToken = `${PREFIX}.confluence.problems.personalAccessToken`;
  }
  return problems;
}

export function confluencePayload(values: ConfluenceValues): ConfluencePayload {
  const common = {
    baseUrl: values.baseUrl.trim(),
    spaceKey: values.spaceKey.trim(),
    cloud: values.deployment === "cloud",
  };
  if (values.authType === "personalToken") {
    return {
      ...common,
      username: "",
      accessToken: "",
      personalAccessToken: values.personalAccessToken.trim(),
    };
  }
  return { ...common, username: values.username.trim(), accessToken: values.accessToken.trim() };
}

/** True when no field has a problem. */
export const isClean = (problems: Record<string, string | undefined>) =>
  Object.values(problems).every((problem) => !problem);
