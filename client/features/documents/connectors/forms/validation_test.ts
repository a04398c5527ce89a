import assert from "node:assert/strict";
import en from "../../../../locales/en.json" with { type: "json" };
import {
  ConfluenceOptions,
  WebsiteOptions,
  YouTubeOptions,
} from "../../../../../shared/api/connectors_sources.ts";
import {
  confluencePayload,
  confluenceProblems,
  type ConfluenceValues,
  isClean,
  websitePayload,
  websiteProblems,
  youtubePayload,
  youtubeProblems,
} from "./validation.ts";

function text(key: string): string | undefined {
  let node: unknown = en;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : undefined;
}

/** Every problem names an English text. */
function assertTexts(problems: Record<string, string | undefined>) {
  for (const key of Object.values(problems)) assert.ok(key && text(key), `${key} has no English text`);
}

Deno.test("YouTube form: a video link is required, the language is optional; the payload is what the server reads", () => {
  const empty = youtubeProblems({ url: "", language: "" });
  assert.deepEqual(Object.keys(empty), ["url"]);
  assertTexts(empty);
  assert.equal(text(empty.url!), "Invalid URL. Should be youtu.be or youtube.com/watch.");
  assert.deepEqual(Object.keys(youtubeProblems({ url: "https://vimeo.com/1", language: "english please" })), [
    "url",
    "language",
  ]);
  const values = { url: " https://youtu.be/tide0000001 ", language: "" };
  assert.ok(isClean(youtubeProblems(values)));
  assert.deepEqual(youtubePayload(values), { url: "https://youtu.be/tide0000001" });
  assert.deepEqual(youtubePayload({ ...values, language: "pt-BR" }), {
    url: "https://youtu.be/tide0000001",
    language: "pt-BR",
  });
  assert.ok(YouTubeOptions.safeParse(youtubePayload({ ...values, language: "pt-BR" })).success);
});

Deno.test("Website form: http(s) URL, depth 1 to 5, pages 1 to 500; numbers posted", () => {
  const bad = websiteProblems({ url: "example", depth: "0", maxLinks: "501" });
  assert.deepEqual(Object.keys(bad).sort(), ["depth", "maxLinks", "url"]);
  assertTexts(bad);
  assert.deepEqual(
    Object.keys(websiteProblems({ url: "ftp://example.com", depth: "2.5", maxLinks: "" })).sort(),
    [
      "depth",
      "maxLinks",
      "url",
    ],
  );
  const values = { url: "https://example.com/docs", depth: "2", maxLinks: "40" };
  assert.ok(isClean(websiteProblems(values)));
  const payload = websitePayload(values);
  assert.deepEqual(payload, { url: "https://example.com/docs", depth: 2, maxLinks: 40 });
  assert.deepEqual(WebsiteOptions.parse(payload), payload);
});

Deno.test("Confluence form: base URL, space key and the chosen credentials; the spec's payload", () => {
  const start: ConfluenceValues = {
    deployment: "cloud",
    baseUrl: "",
    spaceKey: "",
    authType: "username",
    username: "",
    accessToken: "",
    personalAccessToken: "",
  };
  const empty = confluenceProblems(start);
  assert.deepEqual(Object.keys(empty).sort(), ["accessToken", "baseUrl", "spaceKey", "username"]);
  assertTexts(empty);
  const pat = confluenceProblems({ ...start, authType: "personalToken" });
  assert.deepEqual(Object.keys(pat).sort(), ["baseUrl", "personalAccessToken", "spaceKey"]);
  assertTexts(pat);

  const cloud = {
    ...start,
    baseUrl: "https://harbour.atlassian.net",
    spaceKey: " DOCS ",
    username: "ana",
    accessToken: "t",
  };
  assert.ok(isClean(confluenceProblems(cloud)));
  assert.deepEqual(confluencePayload(cloud), {
    baseUrl: "https://harbour.atlassian.net",
    spaceKey: "DOCS",
    username: "ana",
    accessToken: "t",
    cloud: true,
  });
  assert.ok(ConfluenceOptions.safeParse(confluencePayload(cloud)).success);

  const server: ConfluenceValues = {
    ...start,
    deployment: "server",
    baseUrl: "https://wiki.intranet/confluence",
    spaceKey: "OPS",
    authType: "personalToken",
    personalAccessToken: "pat",
    username: "left over",
  };
  assert.deepEqual(confluencePayload(server), {
    baseUrl: "https://wiki.intranet/confluence",
    spaceKey: "OPS",
    username: "",
    accessToken: "",
    personalAccessToken: "pat",
    cloud: false,
  });
  const parsed = ConfluenceOptions.parse(confluencePayload(server));
  assert.equal(parsed.personalAccessToken, "pat");
  assert.equal(parsed.cloud, false);
});
