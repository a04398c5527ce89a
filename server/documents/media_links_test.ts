import assert from "node:assert/strict";
import { documents } from "../../db/schema.ts";
import { UploadAnswer } from "../../shared/api/documents.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { startFakeAudio } from "../testing/fake_audio.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import type { ProviderDeps } from "../providers/endpoints.ts";

/**
 * Links that serve audio or video (upload-link and the developer API's upload-link) are transcribed like an
 * uploaded recording, fetched through the same URL guard and within the same size limit as other links.
 */

const fixture = (name: string) =>
  Deno.readFileSync(new URL(`../../tests/fixtures/audio/${name}`, import.meta.url));

/** A web server on loopback standing for the internet, serving recordings. */
function startMediaSite() {
  const seen: string[] = [];
  const routes: Record<string, { type: string; body: Uint8Array }> = {
    "/podcast/episode-1.mp3": { type: "audio/mpeg", body: fixture("tone.mp3") },
    "/watch": { type: "video/mp4", body: fixture("tone.mp4") },
    "/memo.webm": { type: "application/octet-stream", body: fixture("tone.webm") },
    "/broken.ogg": {
      type: "audio/ogg",
      body: new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...new Array(300).fill(5)]),
    },
    "/long.mp3": { type: "audio/mpeg", body: new Uint8Array(1024 * 1024 + 10) },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const { pathname } = new URL(request.url);
    seen.push(pathname);
    const route = routes[pathname];
    if (!route) return new Response("Not here", { status: 404 });
    return new Response(route.body as Uint8Array<ArrayBuffer>, { headers: { "content-type": route.type } });
  });
  return { seen, port: () => server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** Made-up public names taken to the loopback site; a name on loopback is for the guard to refuse. */
function network(site: ReturnType<typeof startMediaSite>) {
  const names: Record<string, string[]> = {
    "media.example.test": ["93.184.215.14"],
    "inside.example.test": ["127.0.0.1"],
  };
  return {
    resolve: (hostname: string) => Promise.resolve(names[hostname] ?? []),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname !== "media.example.test") {
        return Promise.reject(new Error(`The guard let ${url.href} through to the network`));
      }
      return fetch(`http://127.0.0.1:${site.port()}${url.pathname}`, init);
    }) as typeof fetch,
  };
}

async function mediaApp(site: ReturnType<typeof startMediaSite>, whisper: ReturnType<typeof startFakeAudio>) {
  const providerDeps: ProviderDeps = { endpoints: { openai: whisper.baseURL } };
  const app = await createTestApp({ providerDeps, env: { MAX_UPLOAD_MB: "1" } });
  app.deps.linkFetch = network(site);
  const saved = await app.json("/api/system/update-env", {
    json: { WhisperProvider: "openai", OpenAiKey: "sk-links" },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  await app.json("/api/workspace/new", { json: { name: "Links" } });
  return app;
}

const uploadLink = (app: TestApp, link: string) =>
  app.json("/api/workspace/links/upload-link", { json: { link } });

Deno.test("a link serving audio or video becomes a document holding its transcript", async () => {
  await using site = startMediaSite();
  await using whisper = startFakeAudio();
  await using app = await mediaApp(site, whisper);

  whisper.script({ transcript: "Welcome to the first episode." });
  const audio = UploadAnswer.parse(
    (await uploadLink(app, "https://media.example.test/podcast/episode-1.mp3")).body,
  );
  const [document] = audio.documents!;
  assert.equal(document.title, "media.example.test_podcast_episode-1.mp3");
  assert.equal(document.chunkSource, "link://https://media.example.test/podcast/episode-1.mp3");
  const stored = JSON.parse(await Deno.readTextFile(`${app.deps.paths.documents}/${document.location}`));
  assert.equal(stored.pageContent, "Welcome to the first episode.");
  assert.equal(stored.docSource, "URL link uploaded by the user.");
  assert.deepEqual(whisper.transcriptions[0].bytes, fixture("tone.mp3"));
  assert.equal(whisper.transcriptions[0].fileType, "audio/mpeg");

  // A video by its Content-Type alone; a recording served as octet-stream by its path's extension.
  whisper.script({ transcript: "A video's sound track." });
  const video = UploadAnswer.parse((await uploadLink(app, "https://media.example.test/watch")).body);
  assert.equal(video.documents![0].title, "media.example.test_watch.mp4");
  assert.equal(whisper.transcriptions[1].fileType, "video/mp4");
  whisper.script({ transcript: "A voice memo." });
  const memo = UploadAnswer.parse((await uploadLink(app, "https://media.example.test/memo.webm")).body);
  assert.equal(memo.documents![0].title, "media.example.test_memo.webm");
  assert.equal(whisper.transcriptions.length, 3);

  // The developer API's upload-link transcribes too.
  const { key } = await makeApiKey(app);
  whisper.script({ transcript: "Through the developer API." });
  const api = await app.json<{ success: boolean; documents: { title: string }[] }>(
    "/api/v1/document/upload-link",
    withKey(key, { json: { link: "https://media.example.test/podcast/episode-1.mp3" } }),
  );
  assert.equal(api.status, 200, JSON.stringify(api.body));
  assert.equal(api.body.documents[0].title, "media.example.test_podcast_episode-1.mp3");
  assert.equal(whisper.transcriptions.length, 4);
});

Deno.test("a linked recording goes through the URL guard and the size limit; one that cannot be decoded is named", async () => {
  await using site = startMediaSite();
  await using whisper = startFakeAudio();
  await using app = await mediaApp(site, whisper);

  const inside = await uploadLink(app, "http://inside.example.test/podcast/episode-1.mp3");
  assert.equal(inside.status, 400, JSON.stringify(inside.body));
  assert.ok(!site.seen.includes("/podcast/episode-1.mp3"), "the guard fetched nothing");

  const long = await uploadLink(app, "https://media.example.test/long.mp3");
  assert.equal(long.status, 413);
  assert.equal(
    (long.body as { error: string }).error,
    "The content at https://media.example.test/long.mp3 is larger than the upload limit of 1 MB.",
  );

  const broken = await uploadLink(app, "https://media.example.test/broken.ogg");
  assert.equal(broken.status, 400);
  assert.equal(
    (broken.body as { error: string }).error,
    "media.example.test_broken.ogg holds no Ogg audio.",
  );
  assert.equal(whisper.transcriptions.length, 0, "nothing reached the transcription provider");
  assert.equal((await app.deps.db.select().from(documents)).length, 0, "nothing was stored");
});
