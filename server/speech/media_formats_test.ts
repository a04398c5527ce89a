import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { startFakeAudio } from "../testing/fake_audio.ts";
import type { ProviderDeps } from "../providers/endpoints.ts";
import { decodeToMono16k } from "../providers/transcription/decode.ts";

/**
 * Audio and video uploads in every container the transcription accepts (tests/fixtures/audio, made with
 * ffmpeg): decoded with audio-decode, then transcribed through the fake Whisper API.
 */

const FIXTURES = new URL("../../tests/fixtures/audio/", import.meta.url);
const fixture = (name: string) => Deno.readFileSync(new URL(name, FIXTURES));

const FORMATS = [
  { name: "tone.mp3", type: "audio/mpeg" },
  { name: "tone.m4a", type: "audio/mp4" },
  { name: "tone.ogg", type: "audio/ogg" },
  { name: "tone.webm", type: "audio/webm" },
  { name: "tone.mp4", type: "video/mp4" },
];

Deno.test("every fixture decodes to 1.5 s of the 440 Hz tone at 16 kHz mono", async () => {
  for (const { name } of FORMATS) {
    const bytes = fixture(name);
    assert.ok(bytes.length <= 20 * 1024, `${name} is small`);
    const samples = await decodeToMono16k(name, bytes);
    assert.ok(Math.abs(samples.length - 24_000) <= 1_600, `${name}: ${samples.length} samples`);
    // A 440 Hz tone crosses zero about 880 times a second: 1320 times in 1.5 s.
    let crossings = 0;
    for (let index = 1; index < samples.length; index++) {
      if ((samples[index - 1] < 0) !== (samples[index] < 0)) crossings++;
    }
    assert.ok(crossings > 1200 && crossings < 1450, `${name}: ${crossings} zero crossings`);
  }
});

async function speechApp() {
  const fake = startFakeAudio();
  const providerDeps: ProviderDeps = { endpoints: { openai: fake.baseURL } };
  const app = await createTestApp({ providerDeps });
  const saved = await app.json("/api/system/update-env", {
    json: { WhisperProvider: "openai", OpenAiKey: "sk-formats" },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  await app.json("/api/workspace/new", { json: { name: "Talk" } });
  return { fake, app };
}

function upload(app: TestApp, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart]), name);
  return app.json<Record<string, unknown>>("/api/workspace/talk/upload", { method: "POST", body: form });
}

/** Every file under the storage's documents and uploads folders. */
async function libraryFiles(app: TestApp): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    try {
      for await (const entry of Deno.readDir(folder)) {
        const path = join(folder, entry.name);
        if (entry.isDirectory) await walk(path);
        else found.push(path);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  };
  await walk(app.deps.paths.documents);
  await walk(app.deps.paths.uploads);
  return found.sort();
}

Deno.test("mp3, m4a, ogg, webm and mp4 uploads become documents through the Whisper API, sent as they came", async () => {
  const { fake, app } = await speechApp();
  await using _fake = fake;
  await using _app = app;
  for (const [index, { name, type }] of FORMATS.entries()) {
    fake.script({ transcript: `Spoken words number ${index + 1}.` });
    const bytes = fixture(name);
    const answer = await upload(app, name, bytes);
    assert.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body)}`);
    const [document] = answer.body.documents as { title: string; location: string }[];
    assert.equal(document.title, name);
    const stored = JSON.parse(await Deno.readTextFile(join(app.deps.paths.documents, document.location)));
    assert.equal(stored.pageContent, `Spoken words number ${index + 1}.`);
    assert.equal(stored.docSource, "audio file uploaded by the user.");
    const sent = fake.transcriptions.at(-1)!;
    assert.equal(sent.fileName, name);
    assert.equal(sent.fileType, type);
    assert.deepEqual(sent.bytes, bytes);
  }
  assert.equal(fake.transcriptions.length, FORMATS.length);
});

Deno.test("a container whose audio cannot be decoded is refused with a sentence naming it; nothing is stored or sent", async () => {
  const { fake, app } = await speechApp();
  await using _fake = fake;
  await using _app = app;
  const before = await libraryFiles(app);
  const m4a = fixture("tone.m4a");
  const cases = [
    // The MP4 header and no more: the sound track is cut off.
    {
      name: "cut.m4a",
      bytes: m4a.slice(0, 300),
      says: /^cut\.m4a could not be decoded as MP4 \(m4a\) audio: .+\.$/,
    },
    {
      name: "broken.webm",
      bytes: new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...new Uint8Array(400).fill(9)]),
      says: /^broken\.webm could not be decoded as WebM audio: .+\.$/,
    },
    {
      name: "empty.ogg",
      bytes: new Uint8Array([..."OggS"].map((char) => char.charCodeAt(0)).concat(new Array(400).fill(7))),
      says: /^empty\.ogg holds no Ogg audio\.$/,
    },
  ];
  for (const { name, bytes, says } of cases) {
    const answer = await upload(app, name, bytes);
    assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer.body)}`);
    assert.match(String(answer.body.error ?? answer.body.message), says);
  }
  assert.equal(fake.transcriptions.length, 0, "nothing was sent to the provider");
  assert.deepEqual(await libraryFiles(app), before, "nothing was left in the library");
});
