import assert from "node:assert/strict";
import {
  YOUTUBE_URL_MESSAGE,
  YouTubeOptions,
  youtubeVideoId,
} from "../../../shared/api/connectors_sources.ts";
import { collect, testNetwork } from "../../testing/connector_context.ts";
import { type FakeVideo, startFakeYouTube } from "../../testing/fake_youtube.ts";
import { type ConnectorDocument, ConnectorError } from "../source.ts";
import { NO_TRANSCRIPT, youtubeSource } from "./youtube.ts";

const VIDEOS: Record<string, FakeVideo> = {
  // German first, then English: English is chosen unless German is asked for.
  "tide0000001": {
    title: "How tides work",
    author: "Harbour Channel",
    description: "Why the sea rises twice a day.",
    tracks: [
      { languageCode: "de", name: "German", lines: [[0, 2, "Die Gezeiten"], [2, 3, "kommen vom Mond."]] },
      {
        languageCode: "en",
        name: "English",
        lines: [[0, 2.5, "The tides come"], [2.5, 3, "from the moon&amp;#39;s pull &amp;amp; the sun."]],
      },
    ],
  },
  // No English: the first track.
  "french00001": {
    title: "Les marées",
    author: "Chaîne du port",
    tracks: [
      { languageCode: "fr", name: "French", lines: [[0, 2, "Les marées viennent de la lune."]] },
      { languageCode: "es", name: "Spanish", lines: [[0, 2, "Las mareas."]] },
    ],
  },
  // English of a region, automatic: still English before the first track.
  "regional001": {
    title: "Regional English",
    author: "Harbour Channel",
    tracks: [
      { languageCode: "nl", name: "Dutch", lines: [[0, 1, "Het getij."]] },
      { languageCode: "en-GB", name: "English (UK)", kind: "asr", lines: [[0, 1, "The tide, in British."]] },
    ],
  },
  "nocaptions1": { title: "Silent film", author: "Quiet Channel" },
  "private0001": { title: "Private", author: "Someone", unplayable: true },
};

async function withYouTube(run: (network: ReturnType<typeof testNetwork>) => Promise<void>) {
  await using youtube = startFakeYouTube(VIDEOS);
  const network = testNetwork({ "www.youtube.com": youtube.baseURL });
  await run(network);
}

async function importVideo(network: ReturnType<typeof testNetwork>, body: Record<string, unknown>) {
  const options = YouTubeOptions.parse(body);
  const items = await collect(youtubeSource.documents(options, network.context));
  assert.equal(items.length, 1);
  return items[0] as ConnectorDocument;
}

async function failure(
  network: ReturnType<typeof testNetwork>,
  body: Record<string, unknown>,
): Promise<string> {
  const options = YouTubeOptions.parse(body);
  const error = await collect(youtubeSource.documents(options, network.context)).then(
    () => assert.fail("the import should have failed"),
    (error) => error,
  );
  assert.ok(error instanceof ConnectorError, String(error));
  return error.message;
}

Deno.test("youtubeVideoId reads the reference's link forms and refuses others", () => {
  for (
    const link of [
      "https://www.youtube.com/watch?v=tide0000001",
      "youtube.com/watch?v=tide0000001&t=42s",
      "https://m.youtube.com/watch?feature=share&v=tide0000001",
      "https://youtu.be/tide0000001",
      "https://youtu.be/tide0000001?si=abc",
      "https://www.youtube.com/embed/tide0000001",
      "https://www.youtube.com/shorts/tide0000001",
      "https://www.youtube.com/live/tide0000001?feature=share",
    ]
  ) assert.equal(youtubeVideoId(link), "tide0000001", link);
  for (
    const link of [
      "",
      "https://vimeo.com/123456789",
      "https://www.youtube.com/watch?v=short",
      "https://example.com/watch?v=tide0000001",
      "https://www.youtube.com/channel/UCfakechannel",
    ]
  ) assert.equal(youtubeVideoId(link), null, link);
  for (const url of [undefined, 42, "https://vimeo.com/123456789"]) {
    const parsed = YouTubeOptions.safeParse({ url });
    assert.equal(parsed.success, false);
    assert.equal(parsed.error?.issues[0].message, YOUTUBE_URL_MESSAGE);
  }
  assert.equal(
    YouTubeOptions.safeParse({ url: "https://youtu.be/tide0000001", language: "not a code" }).success,
    false,
  );
});

Deno.test("youtube: English captions by default, with the title, channel and link; entities decoded", async () => {
  await withYouTube(async (network) => {
    const document = await importVideo(network, { url: "https://youtu.be/tide0000001" });
    assert.equal(document.key, "tide0000001");
    assert.equal(document.title, "How tides work");
    assert.equal(document.url, "https://www.youtube.com/watch?v=tide0000001");
    assert.equal(document.text, "The tides come from the moon's pull & the sun.");
    assert.equal(document.metadata?.docAuthor, "Harbour Channel");
    assert.equal(document.metadata?.description, "Why the sea rises twice a day.");
    assert.equal(
      youtubeSource.folder(YouTubeOptions.parse({ url: "https://youtu.be/tide0000001" })),
      "youtube-transcripts",
    );
    // Every request went to www.youtube.com through the guard: watch page, player, the English track.
    assert.deepEqual(network.requests.map((url) => new URL(url).pathname), [
      "/watch",
      "/youtubei/v1/player",
      "/api/timedtext",
    ]);
    assert.equal(new URL(network.requests[2]).searchParams.get("lang"), "en");

    // The same captions give the same version; a second import sees it unchanged.
    const again = await importVideo(network, { url: "https://www.youtube.com/watch?v=tide0000001" });
    assert.equal(again.version, document.version);
  });
});

Deno.test("youtube: the language asked for, English of a region, else the first track", async () => {
  await withYouTube(async (network) => {
    const german = await importVideo(network, { url: "https://youtu.be/tide0000001", language: "de" });
    assert.equal(german.text, "Die Gezeiten kommen vom Mond.");
    const regional = await importVideo(network, { url: "https://youtu.be/regional001" });
    assert.equal(regional.text, "The tide, in British.");
    const french = await importVideo(network, { url: "https://youtu.be/french00001" });
    assert.equal(french.text, "Les marées viennent de la lune.");
    assert.equal(french.metadata?.docAuthor, "Chaîne du port");
    assert.equal(french.metadata?.description, "Transcript (fr) of the YouTube video Les marées.");
  });
});

Deno.test("youtube: no captions, a missing language, a private video, a bad link: sentences", async () => {
  await withYouTube(async (network) => {
    assert.equal(await failure(network, { url: "https://youtu.be/nocaptions1" }), NO_TRANSCRIPT);
    assert.equal(
      await failure(network, { url: "https://youtu.be/french00001", language: "de" }),
      "That YouTube video has no captions in de; it has captions in fr, es.",
    );
    assert.equal(await failure(network, { url: "https://youtu.be/private0001" }), NO_TRANSCRIPT);
    assert.equal(
      await failure(network, { url: "https://youtu.be/unknown0001" }),
      "That YouTube video is unavailable: it may be private or removed.",
    );
    // The source checks the link itself too, for a caller that did not parse the options.
    const error = await collect(
      youtubeSource.documents({ url: "https://vimeo.com/1", language: undefined }, network.context),
    )
      .catch((caught) => caught);
    assert.equal((error as Error).message, YOUTUBE_URL_MESSAGE);
  });
});

Deno.test("youtube: an unreachable YouTube is a sentence, and the guard refuses a private address", async () => {
  const refused = testNetwork({}, { privateHosts: ["www.youtube.com"] });
  const message = await failure(refused, { url: "https://youtu.be/tide0000001" });
  assert.match(
    message,
    /^Could not reach YouTube: www\.youtube\.com points to a private address \(10\.0\.0\.5\)/,
  );
  assert.match(message, /\.$/);
  assert.deepEqual(refused.requests, []);

  const unresolved = testNetwork({});
  assert.equal(
    await failure(unresolved, { url: "https://youtu.be/tide0000001" }),
    "Could not reach YouTube: Cannot resolve the host www.youtube.com.",
  );
});
