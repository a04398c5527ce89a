import assert from "node:assert/strict";
import { CONFLUENCE_MESSAGES, ConfluenceOptions } from "../../../shared/api/connectors_sources.ts";
import { collect, testNetwork } from "../../testing/connector_context.ts";
import {
  CLOUD_USER,
  type FakeConfluenceSpace,
  SERVER_PAT,
  startFakeConfluence,
} from "../../testing/fake_confluence.ts";
import { type ConnectorDocument, ConnectorError, type ConnectorSkip } from "../source.ts";
import { confluenceRoot, confluenceSource, NO_PAGES, storageToMarkdown } from "./confluence.ts";

const INSTALL_STORAGE = `<h2>Before you start</h2><p>Install with <strong>apt</strong>.</p>` +
  `<ac:structured-macro ac:name="code" ac:schema-version="1" ac:macro-id="abc"><ac:parameter ac:name="language">bash</ac:parameter>` +
  `<ac:plain-text-body><![CDATA[apt-get install lectern && echo "<done>"]]></ac:plain-text-body></ac:structured-macro>` +
  `<p><ac:image ac:height="250"><ri:attachment ri:filename="diagram.png" /></ac:image></p>` +
  `<ac:structured-macro ac:name="info"><ac:parameter ac:name="title">Careful</ac:parameter>` +
  `<ac:rich-text-body><p>It needs root.</p></ac:rich-text-body></ac:structured-macro>` +
  `<p>See <ac:link><ri:page ri:content-title="Release notes" /><ac:plain-text-link-body><![CDATA[the notes]]></ac:plain-text-link-body></ac:link>.</p>` +
  `<ul><li>one</li><li>two</li></ul>`;

const SPACES: FakeConfluenceSpace[] = [
  {
    key: "DOCS",
    name: "Harbour Docs",
    pages: [
      { id: "101", title: "Home", storage: "<p>Welcome to the harbour docs.</p>", version: 3 },
      { id: "102", title: "Getting started", parents: ["101"], storage: "<p>Start here.</p>" },
      {
        id: "103",
        title: "Install",
        parents: ["101", "102"],
        storage: INSTALL_STORAGE,
        version: 7,
        attachments: ["diagram.png", "setup.pdf"],
      },
      { id: "104", title: "Release notes", storage: "<h1>2.0</h1><p>Faster tides.</p>" },
      { id: "105", title: "Unfinished", storage: "<p>Draft.</p>", status: "draft" },
    ],
  },
  { key: "EMPTY", name: "Nothing yet", pages: [] },
];

const CLOUD_HOST = "harbour.atlassian.net";
const SERVER_HOST = "wiki.intranet.test";

async function importSpace(network: ReturnType<typeof testNetwork>, body: Record<string, unknown>) {
  const items = await collect(confluenceSource.documents(ConfluenceOptions.parse(body), network.context));
  return {
    documents: items.filter((item): item is ConnectorDocument => "key" in item),
    skips: items.filter((item): item is ConnectorSkip => "skip" in item),
  };
}

async function failure(network: ReturnType<typeof testNetwork>, body: Record<string, unknown>) {
  const error = await collect(confluenceSource.documents(ConfluenceOptions.parse(body), network.context))
    .then(
      () => assert.fail("the import should have failed"),
      (caught) => caught,
    );
  assert.ok(error instanceof ConnectorError, String(error));
  return error.message;
}

Deno.test("ConfluenceOptions: the reference's sentences for missing credentials, base URL and space key", () => {
  const cases: [Record<string, unknown>, string][] = [
    [
      { baseUrl: "https://x.atlassian.net", spaceKey: "DOCS", username: "ana" },
      CONFLUENCE_MESSAGES.credentials,
    ],
    [
      { baseUrl: "https://x.atlassian.net", spaceKey: "DOCS", accessToken: "t" },
      CONFLUENCE_MESSAGES.credentials,
    ],
    [{ baseUrl: "not a url", spaceKey: "DOCS", ...CLOUD_USER }, CONFLUENCE_MESSAGES.baseUrl],
    [{ baseUrl: "ftp://x.atlassian.net", spaceKey: "DOCS", ...CLOUD_USER }, CONFLUENCE_MESSAGES.baseUrl],
    [{ baseUrl: "https://x.atlassian.net", spaceKey: " ", ...CLOUD_USER }, CONFLUENCE_MESSAGES.spaceKey],
  ];
  for (const [body, message] of cases) {
    assert.equal(ConfluenceOptions.safeParse(body).error?.issues[0].message, message, JSON.stringify(body));
  }
  // Server/Data Center: a personal access token alone, in either field; cloud is the default.
  assert.equal(
    ConfluenceOptions.parse({ baseUrl: "https://w.test", spaceKey: "D", accessToken: "pat", cloud: false })
      .cloud,
    false,
  );
  assert.ok(
    ConfluenceOptions.safeParse({ baseUrl: "https://w.test", spaceKey: "D", personalAccessToken: "p" })
      .success,
  );
  assert.equal(
    ConfluenceOptions.parse({ baseUrl: "https://w.test", spaceKey: "D", ...CLOUD_USER }).cloud,
    true,
  );
  assert.equal(
    confluenceRoot({ baseUrl: "https://x.atlassian.net/wiki/spaces/DOCS", cloud: true }),
    "https://x.atlassian.net/wiki",
  );
  assert.equal(
    confluenceRoot({ baseUrl: "https://wiki.intranet/confluence/", cloud: false }),
    "https://wiki.intranet/confluence",
  );
});

Deno.test("storageToMarkdown: code macros fenced, images and macro parameters dropped, links keep their text", async () => {
  const markdown = await storageToMarkdown(INSTALL_STORAGE);
  assert.equal(
    markdown,
    [
      "## Before you start",
      "",
      "Install with **apt**.",
      "",
      "```bash",
      'apt-get install lectern && echo "<done>"',
      "```",
      "",
      "It needs root.",
      "",
      "See the notes.",
      "",
      "-   one",
      "-   two",
    ].join("\n"),
  );
});

Deno.test("confluence cloud: every current page of the space, titled by its place in the tree, pages of results followed", async () => {
  await using confluence = startFakeConfluence("cloud", SPACES);
  const network = testNetwork({ [CLOUD_HOST]: confluence.baseURL });
  const body = {
    baseUrl: `https://${CLOUD_HOST}/wiki/spaces/DOCS/overview`,
    spaceKey: "DOCS",
    ...CLOUD_USER,
  };
  const { documents, skips } = await importSpace(network, body);

  assert.deepEqual(documents.map((document) => document.title), [
    "Harbour Docs › Home",
    "Harbour Docs › Home › Getting started",
    "Harbour Docs › Home › Getting started › Install",
    "Harbour Docs › Release notes",
  ]);
  const install = documents[2];
  assert.equal(install.key, "103");
  assert.equal(install.version, "7");
  assert.equal(install.url, `https://${CLOUD_HOST}/wiki/spaces/DOCS/pages/103/Install`);
  assert.match(install.text, /```bash\napt-get install lectern/);
  assert.equal(install.metadata?.docAuthor, "Ana Harbour");
  assert.equal(install.metadata?.published, "2026-11-20T10:00:00.000Z");
  assert.equal(documents[3].text, "# 2.0\n\nFaster tides.");
  // Attachments skipped, each counted.
  assert.deepEqual(skips, [
    {
      skip: "Harbour Docs › Home › Getting started › Install › diagram.png",
      why: "Attachments are not imported.",
    },
    {
      skip: "Harbour Docs › Home › Getting started › Install › setup.pdf",
      why: "Attachments are not imported.",
    },
  ]);
  // At most 2 results per answer: the second through _links.next, all under /wiki/rest/api, Basic auth.
  assert.deepEqual(confluence.contentStarts, [0, 2]);
  assert.ok(network.requests.every((url) => new URL(url).pathname.startsWith("/wiki/rest/api/")));
  assert.ok(
    confluence.authorizations.every((header) =>
      header === `Basic ${btoa("ana@harbour.test:cloud-api-token")}`
    ),
  );
  // The token is in no document.
  assert.ok(documents.every((document) => !JSON.stringify(document).includes(CLOUD_USER.accessToken)));
  assert.equal(
    confluenceSource.folder(ConfluenceOptions.parse(body)),
    "confluence-harbour-atlassian-net-docs",
  );
});

Deno.test("confluence server/data center: context path kept, personal access token as a bearer token", async () => {
  await using confluence = startFakeConfluence("server", SPACES);
  const network = testNetwork({ [SERVER_HOST]: confluence.baseURL });
  const { documents } = await importSpace(network, {
    baseUrl: `https://${SERVER_HOST}/confluence/`,
    spaceKey: "DOCS",
    accessToken: SERVER_PAT,
    cloud: false,
  });
  assert.equal(documents.length, 4);
  assert.equal(documents[0].url, `https://${SERVER_HOST}/confluence/pages/viewpage.action?pageId=101`);
  assert.ok(network.requests.every((url) => new URL(url).pathname.startsWith("/confluence/rest/api/")));
  assert.ok(confluence.authorizations.every((header) => header === `Bearer ${SERVER_PAT}`));

  // The reference's separate field for the token works the same.
  const again = await importSpace(network, {
    baseUrl: `https://${SERVER_HOST}/confluence`,
    spaceKey: "DOCS",
    personalAccessToken: SERVER_PAT,
    cloud: "false",
  });
  assert.deepEqual(
    again.documents.map((document) => document.version),
    documents.map((document) => document.version),
  );
});

Deno.test("confluence: a missing space, a wrong token, an empty space, a wrong base URL, an unreachable host: sentences", async () => {
  await using cloud = startFakeConfluence("cloud", SPACES);
  await using server = startFakeConfluence("server", SPACES);
  const network = testNetwork({ [CLOUD_HOST]: cloud.baseURL, [SERVER_HOST]: server.baseURL });
  const cloudBody = { baseUrl: `https://${CLOUD_HOST}`, ...CLOUD_USER };
  assert.equal(
    await failure(network, { ...cloudBody, spaceKey: "NOPE" }),
    "The Confluence space NOPE does not exist, or the account cannot see it.",
  );
  assert.equal(
    await failure(network, { ...cloudBody, spaceKey: "DOCS", accessToken: "wrong" }),
    "Confluence refused the username and access token. Check them and try again.",
  );
  assert.equal(await failure(network, { ...cloudBody, spaceKey: "EMPTY" }), NO_PAGES);
  const serverBody = { baseUrl: `https://${SERVER_HOST}/confluence`, spaceKey: "DOCS", cloud: false };
  assert.equal(
    await failure(network, { ...serverBody, accessToken: "expired" }),
    "Confluence refused the personal access token. Check it and try again.",
  );
  // A server site imported as cloud: /wiki/rest/api is not there.
  assert.equal(
    await failure(network, { ...serverBody, cloud: true, ...CLOUD_USER }),
    `https://${SERVER_HOST}/wiki did not answer as Confluence's REST API does. Check the base URL and the deployment type.`,
  );
  assert.equal(
    await failure(testNetwork({}), { ...cloudBody, spaceKey: "DOCS" }),
    `Could not reach Confluence at https://${CLOUD_HOST}: Cannot resolve the host ${CLOUD_HOST}.`,
  );
  assert.equal(
    await failure(testNetwork({}, { privateHosts: [SERVER_HOST] }), {
      ...serverBody,
      accessToken: SERVER_PAT,
    }),
    `Could not reach Confluence at https://${SERVER_HOST}: ${SERVER_HOST} points to a private address (10.0.0.5); Lectern does not fetch from there.`,
  );
});
