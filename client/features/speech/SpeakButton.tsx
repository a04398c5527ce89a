import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { speakableText } from "../../../shared/speech.ts";
import { toast } from "../../lib/toast.ts";
import { fetchSpeech, useSpeechScope, useSpeechSettings } from "./speech.ts";

const SpeakerIcon = ({ playing }: { playing: boolean }) => (
  <svg
    viewBox="0 0 24 24"
    width="16"
    height="16"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    <path d="M11 5 6 9H2v6h4l5 4z" />
    {playing ? <path d="M22 9l-6 6M16 9l6 6" /> : <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" />}
  </svg>
);

/**
 * Reads a saved answer aloud: with the browser's own voice (`native`), or with the audio the server's
 * text-to-speech provider makes for it. Pressed again, it stops.
 */
export function SpeakButton({ chatId, text }: { chatId: number; text: string }) {
  const { t } = useTranslation();
  const settings = useSpeechSettings();
  const scope = useSpeechScope();
  const [playing, setPlaying] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);

  useEffect(() => () => stopRef.current?.(), []);

  if (!settings || !scope) return null;
  const native = settings.tts === "native";
  if (native && typeof globalThis.speechSynthesis === "undefined") return null;

  function stop() {
    stopRef.current?.();
    stopRef.current = null;
    setPlaying(false);
  }

  async function speak() {
    if (playing) return stop();
    setPlaying(true);
    if (native) {
      const utterance = new SpeechSynthesisUtterance(speakableText(text));
      utterance.onend = () => setPlaying(false);
      utterance.onerror = () => setPlaying(false);
      speechSynthesis.cancel();
      speechSynthesis.speak(utterance);
      stopRef.current = () => speechSynthesis.cancel();
      return;
    }
    const controller = new AbortController();
    stopRef.current = () => controller.abort();
    try {
      const audio = await fetchSpeech(scope!.slug, chatId, controller.signal);
      if (!audio) return setPlaying(false);
      const url = URL.createObjectURL(audio);
      const player = new Audio(url);
      const done = () => {
        URL.revokeObjectURL(url);
        setPlaying(false);
      };
      player.onended = done;
      player.onerror = done;
      stopRef.current = () => {
        player.pause();
        done();
      };
      await player.play().catch(() => {
        // Autoplay refused or no audio output: the fetched speech is still released.
        done();
      });
    } catch (error) {
      setPlaying(false);
      if ((error as Error).name !== "AbortError") {
        toast.error(t("speech.chat.speakFailed", { error: (error as Error).message }));
      }
    }
  }

  const label = playing ? t("speech.chat.stopSpeaking") : t("speech.chat.speak");
  return (
    <button
      type="button"
      className="message-action"
      aria-label={label}
      title={label}
      aria-pressed={playing}
      data-testid="speak-button"
      onClick={speak}
    >
      <SpeakerIcon playing={playing} />
    </button>
  );
}
