import { createContext, useContext, useEffect, useState } from "react";
import { API_BASE, ApiError, authHeaders } from "../../lib/api.ts";
import { fetchSetup } from "../settings/setup.ts";

export interface SpeechSettings {
  /** `native`: the browser reads answers aloud; otherwise the server's text-to-speech provider does. */
  tts: string;
  /** `native`: the browser's speech recognition; `transcription`: the recording goes to the server. */
  stt: string;
}

let loaded: Promise<SpeechSettings> | null = null;

/** The instance's speech providers, read once per page from setup-complete. */
export function speechSettings(): Promise<SpeechSettings> {
  loaded ??= fetchSetup().then((setup) => ({
    tts: typeof setup.TextToSpeechProvider === "string" ? setup.TextToSpeechProvider : "native",
    stt: typeof setup.SpeechToTextProvider === "string" ? setup.SpeechToTextProvider : "native",
  })).catch(() => ({ tts: "native", stt: "native" }));
  return loaded;
}

export function useSpeechSettings(): SpeechSettings | null {
  const [settings, setSettings] = useState<SpeechSettings | null>(null);
  useEffect(() => {
    let live = true;
    speechSettings().then((value) => live && setSettings(value));
    return () => {
      live = false;
    };
  }, []);
  return settings;
}

/** The workspace whose answers the speak buttons read (the chat island provides it). */
export const SpeechScope = createContext<{ slug: string } | null>(null);
export const useSpeechScope = () => useContext(SpeechScope);

/**
 * The speech of a saved answer from `GET /api/workspace/:slug/tts/:chatId`, or null when the server has none
 * (204). A refusal throws the server's sentence.
 */
export async function fetchSpeech(slug: string, chatId: number, signal?: AbortSignal): Promise<Blob | null> {
  const response = await fetch(`${API_BASE}/workspace/${encodeURIComponent(slug)}/tts/${chatId}`, {
    headers: authHeaders(),
    signal,
  });
  if (response.status === 204) return null;
  if (!response.ok) {
    let message = `The server answered ${response.status}`;
    try {
      const body = await response.json();
      message = body?.error ?? body?.message ?? message;
    } catch {
      // Not JSON.
    }
    throw new ApiError(message, response.status, null);
  }
  return await response.blob();
}

/** A recording read by the transcription provider (`POST /api/system/transcribe-audio`). */
export async function transcribeRecording(recording: Blob, signal?: AbortSignal): Promise<string> {
  const form = new FormData();
  const extension = recording.type.includes("ogg") ? "ogg" : recording.type.includes("mp4") ? "m4a" : "webm";
  form.append("audio", recording, `recording.${extension}`);
  const response = await fetch(`${API_BASE}/system/transcribe-audio`, {
    method: "POST",
    headers: authHeaders(),
    body: form,
    signal,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok || !body?.success) {
    throw new ApiError(body?.error ?? `The server answered ${response.status}`, response.status, body);
  }
  return String(body.text ?? "");
}
