import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaces } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { type FakeAudio, sineWav, startFakeAudio } from "../testing/fake_audio.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import type { ProviderDeps } from "../providers/endpoints.ts";
import { speakableText } from "../../shared/speech.ts";

async function speechApp(
  fake: FakeAudio,
  settings: Record<string, string>,
  env: Record<string, string> = {},
) {
  // Every hosted speech API points at the loopback fake; the Whisper model hub too (never contacted here).
  const providerDeps: ProviderDeps = {
    endpoints: { openai: fake.baseURL, elevenlabs: fake.origin, huggingface: fake.origin } as ProviderDeps[
      "endpoints"
    ],
  };
  const app = await createTestApp({ providerDeps, env });
  const saved = await app.json("/api/system/update-env", { json: settings });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.ok(!(saved.body as { error: unknown }).error, JSON.stringify(saved.body));
  assert.equal((await app.json("/api/workspace/new", { json: { name: "Talk" } })).status, 200);
  return app;
}

function upload(app: TestApp, name: string, bytes: Uint8Array, init: RequestInit = {}) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart]), name);
  return app.json<Record<string, unknown>>("/api/workspace/talk/upload", {
    ...init,
    method: "POST",
    body: form,
  });
}

async function storedChat(app: TestApp, text: string, userId: number | null = null): Promise<number> {
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "talk"));
  const [row] = await app.deps.db.insert(workspaceChats).values({
    workspaceId: workspace.id,
    prompt: "Say something.",
    response: JSON.stringify({ text, sources: [], type: "chat" }),
    userId,
  }).returning({ id: workspaceChats.id });
  return row.id;
}

Deno.test("an uploaded WAV becomes a document holding the OpenAI Whisper transcript", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { WhisperProvider: "openai", OpenAiKey: "sk-whisper-test" });
  fake.script({ transcript: "The quick brown fox talks." });
  const wav = sineWav(0.5);
  const answer = await upload(app, "greeting.wav", wav);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [document] = answer.body.documents as { title: string; location: string; wordCount: number }[];
  assert.equal(document.title, "greeting.wav");
  const stored = JSON.parse(
    await Deno.readTextFile(`${app.deps.paths.documents}/${document.location}`),
  );
  assert.equal(stored.pageContent, "The quick brown fox talks.");
  assert.equal(stored.docSource, "audio file uploaded by the user.");
  assert.equal(fake.transcriptions.length, 1);
  const sent = fake.transcriptions[0];
  assert.equal(sent.model, "whisper-1");
  assert.equal(sent.fileName, "greeting.wav");
  assert.equal(sent.authorization, "Bearer sk-whisper-test");
  assert.deepEqual(sent.bytes, wav);
});

Deno.test("the OpenAI-compatible transcription service gets its own key and model", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, {
    WhisperProvider: "generic-openai",
    WhisperGenericOpenAiBaseUrl: fake.baseURL,
    WhisperGenericOpenAiApiKey: "local-secret",
    WhisperGenericOpenAiModel: "Systran/faster-whisper-small",
  });
  fake.script({ transcript: "Spoken words." });
  const answer = await upload(
    app,
    "memo.m4a",
    Deno.readFileSync(new URL("../../tests/fixtures/audio/tone.m4a", import.meta.url)),
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(fake.transcriptions[0].model, "Systran/faster-whisper-small");
  assert.equal(fake.transcriptions[0].authorization, "Bearer local-secret");
  assert.equal(fake.transcriptions[0].fileType, "audio/mp4");
});

Deno.test("uploads that are not audio, too large, or refused by the provider are answered with a sentence", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { WhisperProvider: "openai", OpenAiKey: "sk-whisper-test" }, {
    MAX_UPLOAD_MB: "1",
  });
  const notAudio = await upload(
    app,
    "song.mp3",
    new TextEncoder().encode("just some words, not audio at all"),
  );
  assert.equal(notAudio.status, 400);
  assert.match(
    String(notAudio.body.error ?? notAudio.body.message),
    /^song\.mp3 is not an audio or video file Lectern can transcribe .*\.$/,
  );
  const tooBig = await upload(app, "long.wav", sineWav(40));
  assert.equal(tooBig.status, 413);
  assert.match(String(tooBig.body.error ?? tooBig.body.message), /too large.*\.$/);
  assert.equal(fake.transcriptions.length, 0, "nothing is sent for a refused file");

  fake.script({ status: 401, message: "Incorrect API key provided" });
  const refused = await upload(app, "greeting.wav", sineWav(0.2));
  assert.equal(refused.status, 502);
  assert.equal(
    refused.body.error ?? refused.body.message,
    "OpenAI Whisper could not transcribe greeting.wav: Incorrect API key provided.",
  );
  fake.script({ transcript: "   " });
  const silent = await upload(app, "silence.wav", sineWav(0.2));
  assert.equal(silent.status, 400);
  assert.equal(silent.body.error ?? silent.body.message, "No text content found in silence.wav.");
});

Deno.test("the speak route reads the answer through OpenAI, ElevenLabs or an OpenAI-compatible server", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { TextToSpeechProvider: "openai", TTSOpenAIKey: "sk-tts-test" });
  const chatId = await storedChat(app, "<think>hidden</think>The **answer** is 42.");

  const openai = await app.request(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(openai.status, 200);
  assert.equal(openai.headers.get("content-type"), "audio/wav");
  assert.deepEqual(new Uint8Array(await openai.arrayBuffer()), fake.audio);
  assert.deepEqual(fake.speeches[0].body, { model: "tts-1", voice: "alloy", input: "The answer is 42." });
  assert.equal(fake.speeches[0].authorization, "Bearer sk-tts-test");

  await app.json("/api/system/update-env", {
    json: {
      TextToSpeechProvider: "elevenlabs",
      TTSElevenLabsKey: "xi-secret",
      TTSElevenLabsVoiceModel: "voice-9",
    },
  });
  const eleven = await app.request(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(eleven.status, 200);
  await eleven.arrayBuffer();
  assert.equal(fake.speeches[1].path, "/v1/text-to-speech/voice-9");
  assert.equal(fake.speeches[1].xiApiKey, "xi-secret");
  assert.equal(fake.speeches[1].body.model_id, "eleven_multilingual_v2");
  assert.equal(fake.speeches[1].body.text, "The answer is 42.");

  await app.json("/api/system/update-env", {
    json: {
      TextToSpeechProvider: "generic-openai",
      TTSOpenAICompatibleEndpoint: fake.baseURL,
      TTSOpenAICompatibleModel: "kokoro",
      TTSOpenAICompatibleVoiceModel: "af_bella",
    },
  });
  const generic = await app.request(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(generic.status, 200);
  await generic.arrayBuffer();
  assert.deepEqual(fake.speeches[2].body, { model: "kokoro", voice: "af_bella", input: "The answer is 42." });
  assert.equal(fake.speeches[2].authorization, null);

  fake.script({ raw: { contentType: "text/html", body: "<html>proxy error</html>" } });
  const garbage = await app.json<{ error?: string; message?: string }>(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(garbage.status, 502);
  assert.equal(
    garbage.body.error ?? garbage.body.message,
    "The OpenAI-compatible speech service answered text/html instead of audio.",
  );
  fake.script({ status: 429, message: "Quota exceeded" });
  const quota = await app.json<{ error?: string; message?: string }>(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(quota.status, 502);
  assert.equal(
    quota.body.error ?? quota.body.message,
    "The OpenAI-compatible speech service refused the speech request: Quota exceeded.",
  );
});

Deno.test("the speak route: 204 for the browser's voice or an empty answer, 404 for an unknown chat", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, {});
  const chatId = await storedChat(app, "Spoken by the browser.");
  assert.equal((await app.request(`/api/workspace/talk/tts/${chatId}`)).status, 204);
  await app.json("/api/system/update-env", {
    json: { TextToSpeechProvider: "openai", TTSOpenAIKey: "sk-x" },
  });
  const empty = await storedChat(app, "");
  assert.equal((await app.request(`/api/workspace/talk/tts/${empty}`)).status, 204);
  const unknown = await app.request(`/api/workspace/talk/tts/99999`);
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  const otherWorkspace = await app.request(`/api/workspace/nowhere/tts/${chatId}`);
  assert.equal(otherWorkspace.status, 404);
  await otherWorkspace.body?.cancel();
  assert.equal(fake.speeches.length, 0);
});

Deno.test("the speak route answers only the chat's owner, in a workspace they may use", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { TextToSpeechProvider: "openai", TTSOpenAIKey: "sk-tts-test" });
  const admin = await multiUserInstance(app);
  const alice = await addUser(app, admin, "alice", "default");
  const bob = await addUser(app, admin, "bob", "default");
  const carol = await addUser(app, admin, "carol", "default");
  const [workspace] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "talk"));
  const members = await app.json(`/api/admin/workspaces/${workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [alice.user.id, bob.user.id] },
  });
  assert.equal(members.status, 200, JSON.stringify(members.body));
  const chatId = await storedChat(app, "Alice's answer.", alice.user.id);

  const own = await app.request(`/api/workspace/talk/tts/${chatId}`, bearer(alice.token));
  assert.equal(own.status, 200);
  await own.arrayBuffer();
  for (const other of [bob, carol, admin]) {
    const refused = await app.request(`/api/workspace/talk/tts/${chatId}`, bearer(other.token));
    assert.equal(refused.status, 404, other.user.username);
    await refused.body?.cancel();
  }
  const anonymous = await app.request(`/api/workspace/talk/tts/${chatId}`);
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  assert.equal(fake.speeches.length, 1);
});

Deno.test("transcribe-audio reads the microphone's recording with the transcription provider when chosen", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { WhisperProvider: "openai", OpenAiKey: "sk-whisper-test" });
  const send = (bytes: Uint8Array) => {
    const form = new FormData();
    form.append("audio", new Blob([bytes as BlobPart], { type: "audio/webm" }), "recording.wav");
    return app.json<{ success: boolean; text?: string; error?: string }>("/api/system/transcribe-audio", {
      method: "POST",
      body: form,
    });
  };
  const disabled = await send(sineWav(0.2));
  assert.equal(disabled.status, 400);
  assert.equal(
    disabled.body.error,
    "Server-side transcription is disabled. Set STT_PROVIDER to a supported provider.",
  );
  await app.json("/api/system/update-env", { json: { SpeechToTextProvider: "transcription" } });
  fake.script({ transcript: "Open the pod bay doors." });
  const heard = await send(sineWav(0.2));
  assert.equal(heard.status, 200);
  assert.deepEqual(heard.body, { success: true, text: "Open the pod bay doors." });
  const noise = await send(new TextEncoder().encode("not a recording"));
  assert.equal(noise.status, 400);
  assert.match(String(noise.body.error), /is not an audio or video file/);
});

Deno.test("speech settings: secrets are masked, unknown providers refused with a sentence", async () => {
  await using fake = startFakeAudio();
  await using app = await speechApp(fake, { TTSOpenAIKey: "sk-secret-tts", TTSElevenLabsKey: "xi-secret" });
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.TTSOpenAIKey, true);
  assert.equal(setup.body.results.TTSElevenLabsKey, true);
  assert.equal(setup.body.results.TextToSpeechProvider, "native");
  assert.equal(setup.body.results.WhisperProvider, "local");
  assert.equal(setup.body.results.WhisperModelPref, "Xenova/whisper-small");
  assert.equal(setup.body.results.SpeechToTextProvider, "native");
  assert.ok(!JSON.stringify(setup.body).includes("sk-secret-tts"));
  for (
    const [key, value, message] of [
      ["TextToSpeechProvider", "kokoro", "kokoro is not available in this version of Lectern."],
      ["TextToSpeechProvider", "bogus", "bogus is not a valid TTS provider."],
      ["WhisperProvider", "bogus", "bogus is not a valid transcription model provider."],
      [
        "WhisperModelPref",
        "Xenova/whisper-tiny",
        "Xenova/whisper-tiny is not a valid Whisper model selection.",
      ],
      ["TTSOpenAIKey", "nope", "OpenAI Key must start with sk-"],
    ]
  ) {
    const answer = await app.json<{ error: string | null }>("/api/system/update-env", {
      json: { [key]: value },
    });
    assert.match(String(answer.body.error), new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), key);
  }
});

Deno.test("speakableText drops reasoning and markdown marks", () => {
  assert.equal(
    speakableText("<think>plan</think># Title\n\nSee [the docs](http://x) and `code`."),
    "Title See the docs and code.",
  );
  assert.equal(speakableText("<think>never closed"), "");
});
