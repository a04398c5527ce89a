import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import "../../../../lib/i18n.ts";
import { ConfluenceForm } from "./ConfluenceForm.tsx";
import { WebsiteForm } from "./WebsiteForm.tsx";
import { YouTubeForm } from "./YouTubeForm.tsx";

const ignore = () => {};

Deno.test("the connector forms render the reference's labels, and busy disables the button", () => {
  const youtube = renderToStaticMarkup(<YouTubeForm onSubmit={ignore} busy={false} />);
  assert.match(youtube, /YouTube Video URL/);
  assert.match(youtube, /name="url"/);
  assert.match(youtube, /Collect transcript/);
  const busy = renderToStaticMarkup(<YouTubeForm onSubmit={ignore} busy />);
  assert.match(busy, /Collecting transcript\.\.\./);
  assert.match(busy, /<button type="submit" class="button primary" disabled="">/);

  const website = renderToStaticMarkup(<WebsiteForm onSubmit={ignore} busy={false} />);
  for (const label of ["Website URL", "Crawl Depth", "Maximum Pages"]) {
    assert.ok(website.includes(label), label);
  }
  assert.match(website, /name="depth"[^>]*value="1"/);
  assert.match(website, /name="maxLinks"[^>]*value="20"/);

  const confluence = renderToStaticMarkup(<ConfluenceForm onSubmit={ignore} busy={false} />);
  for (
    const label of [
      "Confluence deployment type",
      "Atlassian Cloud",
      "Self-hosted",
      "Confluence base URL",
      "Confluence space key",
      "Confluence Username",
      "Confluence Access Token",
    ]
  ) assert.ok(confluence.includes(label), label);
  // The personal access token's field shows only when that type is chosen.
  assert.ok(!confluence.includes('name="personalAccessToken"'));
  assert.match(confluence, /name="accessToken"[^>]*type="password"|type="password"[^>]*name="accessToken"/);
});
