import assert from "node:assert/strict";
import { ProviderError } from "../../errors.ts";
import { sineWav, startFakeAudio } from "../../testing/fake_audio.ts";
import { decodeToMono16k, mixDown, resample } from "./decode.ts";
import { localWhisper, missingWhisperFiles } from "./local_whisper.ts";

Deno.test("a generated 8 kHz WAV decodes to 16 kHz mono samples of the same sine", async () => {
  const samples = await decodeToMono16k("tone.wav", sineWav(0.5, 8000, 440));
  assert.equal(samples.length, 8000);
  const peak = samples.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  assert.ok(peak > 0.3 && peak < 0.4, `peak ${peak}`);
  await assert.rejects(
    () => decodeToMono16k("notes.mp3", new TextEncoder().encode("plain words")),
    (error: Error) =>
      error instanceof ProviderError &&
      /^notes\.mp3 could not be decoded as audio: .*\.$/.test(error.message),
  );
});

Deno.test("mixDown averages channels; resample keeps the length ratio", () => {
  assert.deepEqual([...mixDown([new Float32Array([1, 0]), new Float32Array([0, 1])])], [0.5, 0.5]);
  assert.equal(resample(new Float32Array(441), 44100, 16000).length, 160);
});

Deno.test("the local Whisper model is fetched on first use; a hub that fails is named in a sentence", async () => {
  await using hub = startFakeAudio(); // answers 404 for model files
  const modelsDir = await Deno.makeTempDir();
  try {
    assert.equal((await missingWhisperFiles(modelsDir, "Xenova/whisper-small")).length, 7);
    const whisper = localWhisper({ modelsDir, modelId: "Xenova/whisper-small", hubUrl: hub.origin });
    await assert.rejects(
      () => whisper.transcribe({ name: "tone.wav", bytes: sineWav(0.2) }),
      (error: Error) =>
        error instanceof ProviderError &&
        error.message.startsWith(
          "The transcription model Xenova/whisper-small is not installed and could not be downloaded",
        ) &&
        error.message.includes(`${hub.origin}/Xenova/whisper-small/resolve/main/config.json answered 404`),
    );
    // Nothing half-downloaded is left behind.
    assert.deepEqual([...Deno.readDirSync(modelsDir)], []);
  } finally {
    await Deno.remove(modelsDir, { recursive: true });
  }
});
