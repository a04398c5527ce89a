import { type FormEvent, type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";

/** The prompt box: Enter sends, Shift+Enter starts a new line; Stop while an answer streams. */
export function Composer(
  { busy, onSend, onStop }: { busy: boolean; onSend: (message: string) => void; onStop: () => void },
) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const send = () => {
    if (busy || !text.trim()) return;
    onSend(text);
    setText("");
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="chat-input">{t("chat.inputLabel")}</label>
      <textarea
        id="chat-input"
        className="composer-input"
        rows={1}
        placeholder={t("chat.placeholder")}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
      />
      {busy
        ? (
          <button type="button" className="button secondary" onClick={onStop}>
            {t("chat.stop")}
          </button>
        )
        : (
          <button type="submit" className="button primary" disabled={!text.trim()}>
            {t("chat.send")}
          </button>
        )}
    </form>
  );
}
