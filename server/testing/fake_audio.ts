import { Hono } from "hono";

/** A 16-bit mono PCM WAV of a sine wave, made by the test (no fixture file). */
export function sineWav(seconds = 0.5, rate = 16000, frequency = 440): Uint8Array {
  const samples = Math.round(seconds * rate);
  const buffer = new ArrayBuffer(44 + samples * 2);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) =>
    [...text].forEach((char, index) => view.setUint8(offset + index, char.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let index = 0; index < samples; index++) {
    view.setInt16(44 + index * 2, Math.round(Math.sin(2 * Math.PI * frequency * index / rate) * 12000), true);
  }
  return new Uint8Array(buffer);
}

/** What the fake received in one transcription request. */
export interface TranscriptionRequest {
  model: string;
  fileName: string;
  fileType: string;
  bytes: Uint8Array;
  authorization: string | null;
}

export interface SpeechRequest {
  path: string;
  body: Record<string, unknown>;
  authorization: string | null;
  xiApiKey: string | null;
}

/** How the fake answers: a transcript, audio, or a failure of one of the kinds providers show. */
export interface AudioScript {
  transcript?: string;
  /** Fail with this status and OpenAI's error shape. */
  status?: number;
  message?: string;
  /** Answer exactly this instead (a proxy's error page, JSON where audio was expected). */
  raw?: { status?: number; contentType: string; body: string };
}

export interface FakeAudio {
  /** `http://127.0.0.1:<port>/v1`: OpenAI's and an OpenAI-compatible server's base URL. */
  baseURL: string;
  /** `http://127.0.0.1:<port>`: ElevenLabs' base URL (its paths start with /v1). */
  origin: string;
  transcriptions: TranscriptionRequest[];
  speeches: SpeechRequest[];
  /** The audio bytes every speech answer carries (a short generated WAV). */
  audio: Uint8Array;
  script(next: AudioScript): void;
  [Symbol.asyncDispose](): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback fake of the speech APIs: OpenAI's `POST /v1/audio/transcriptions` (multipart) and
 * `POST /v1/audio/speech` (JSON in, audio out), and ElevenLabs' `POST /v1/text-to-speech/:voice`.
 */
export function startFakeAudio(): FakeAudio {
  const transcriptions: TranscriptionRequest[] = [];
  const speeches: SpeechRequest[] = [];
  const audio = sineWav(0.25, 8000);
  let current: AudioScript = { transcript: "Hello from the fake Whisper." };
  const failure = () => {
    if (current.raw) {
      return new Response(current.raw.body, {
        status: current.raw.status ?? 200,
        headers: { "content-type": current.raw.contentType },
      });
    }
    if (current.status) {
      return Response.json({
        error: { message: current.message ?? "Failure", type: "invalid_request_error" },
      }, {
        status: current.status,
      });
    }
    return null;
  };
  const app = new Hono();
  app.post("/v1/audio/transcriptions", async (c) => {
    const form = await c.req.raw.formData();
    const file = form.get("file");
    if (file instanceof File) {
      transcriptions.push({
        model: String(form.get("model")),
        fileName: file.name,
        fileType: file.type,
        bytes: new Uint8Array(await file.arrayBuffer()),
        authorization: c.req.header("authorization") ?? null,
      });
    }
    const failed = failure();
    if (failed) return failed;
    if (!(file instanceof File)) return c.json({ error: { message: "No file was sent." } }, 400);
    return c.json({ text: current.transcript ?? "" });
  });
  const speak = async (
    c: { req: { raw: Request; path: string; header(name: string): string | undefined } },
  ) => {
    speeches.push({
      path: c.req.path,
      body: await c.req.raw.json(),
      authorization: c.req.header("authorization") ?? null,
      xiApiKey: c.req.header("xi-api-key") ?? null,
    });
    return failure() ??
      new Response(audio as Uint8Array<ArrayBuffer>, { headers: { "content-type": "audio/wav" } });
  };
  app.post("/v1/audio/speech", speak);
  app.post("/v1/text-to-speech/:voice", speak);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const close = async () => {
    await server.shutdown();
  };
  return {
    baseURL: `${origin}/v1`,
    origin,
    transcriptions,
    speeches,
    audio,
    script(next) {
      current = next;
    },
    [Symbol.asyncDispose]: close,
    close,
  };
}
