import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast.ts";
import { transcribeRecording, useSpeechSettings } from "./speech.ts";

const MicIcon = ({ live }: { live: boolean }) => (
  <svg
    viewBox="0 0 24 24"
    width="18"
    height="18"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    <rect x="9" y="2" width="6" height="12" rx="3" fill={live ? "currentColor" : "none"} />
    <path d="M5 10a7 7 0 0 0 14 0M12 17v5" />
  </svg>
);

interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionClass = new () => Recognition;

function recognitionClass(): RecognitionClass | null {
  const scope = globalThis as unknown as {
    SpeechRecognition?: RecognitionClass;
    webkitSpeechRecognition?: RecognitionClass;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null;
}

/**
 * The composer's microphone: the browser's own speech recognition (`native`), or a recording that the server's
 * transcription provider reads (`transcription`, `POST /api/system/transcribe-audio`). What was heard is
 * added to the prompt; nothing is sent until the user presses Send.
 */
export function MicButton({ onText, disabled }: { onText: (text: string) => void; disabled?: boolean }) {
  const { t, i18n } = useTranslation();
  const settings = useSpeechSettings();
  const [live, setLive] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);
  useEffect(() => () => stopRef.current?.(), []);

  if (!settings) return null;
  const server = settings.stt === "transcription";
  const Recognition = recognitionClass();
  if (!server && !Recognition) return null;
  if (server && typeof MediaRecorder === "undefined") return null;

  const failed = (error: string) => toast.error(t("speech.chat.listenFailed", { error }));

  async function start() {
    if (live) {
      stopRef.current?.();
      return;
    }
    if (!server && Recognition) {
      const recognition = new Recognition();
      recognition.lang = i18n.language || "en";
      recognition.interimResults = false;
      recognition.continuous = false;
      recognition.onresult = (event) => {
        const heard = Array.from(event.results).map((result) => result[0]?.transcript ?? "").join(" ").trim();
        if (heard) onText(heard);
      };
      recognition.onerror = (event) => event.error !== "aborted" && failed(event.error);
      recognition.onend = () => setLive(false);
      stopRef.current = () => recognition.stop();
      setLive(true);
      recognition.start();
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      return failed((error as Error).message);
    }
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    recorder.onstop = async () => {
      stream.getTracks().forEach((track) => track.stop());
      setLive(false);
      try {
        const heard = (await transcribeRecording(new Blob(chunks, { type: recorder.mimeType }))).trim();
        if (heard) onText(heard);
      } catch (error) {
        failed((error as Error).message);
      }
    };
    stopRef.current = () => recorder.state !== "inactive" && recorder.stop();
    setLive(true);
    recorder.start();
  }

  const label = live ? t("speech.chat.stopListening") : t("speech.chat.listen");
  return (
    <button
      type="button"
      className="composer-attach composer-mic"
      aria-label={label}
      title={label}
      aria-pressed={live}
      disabled={disabled}
      onClick={start}
    >
      <MicIcon live={live} />
    </button>
  );
}
