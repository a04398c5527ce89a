import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_WELCOME_MESSAGES, type WelcomeMessage } from "../../../shared/api/appearance.ts";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { welcomeToSave } from "./appearance.ts";

type Loaded = { messages: WelcomeMessage[] } | { error: string };

/**
 * The messages the home page shows as a short exchange: a user's line and the assistant's answer. When they
 * could not be read, it says so instead of offering a form whose save would replace them.
 */
export function WelcomeSection({ loaded }: { loaded: Loaded }) {
  const { t } = useTranslation();
  if ("error" in loaded) {
    return (
      <section className="appearance-section" aria-labelledby="appearance-welcome">
        <h2 id="appearance-welcome">{t("appearance.welcome.title")}</h2>
        <p className="form-error" role="alert">
          {t("appearance.welcome.loadFailed", { error: loaded.error })}
        </p>
      </section>
    );
  }
  return <WelcomeForm initial={loaded.messages} />;
}

function WelcomeForm({ initial }: { initial: WelcomeMessage[] }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<WelcomeMessage[]>(initial);
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const kept = welcomeToSave(messages);
      await api("/system/set-welcome-messages", { json: { messages: kept } });
      setMessages(kept);
      toast.success(t("appearance.welcome.saved"));
    } catch (caught) {
      toast.error(t("appearance.welcome.saveFailed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }
  const update = (index: number, change: Partial<WelcomeMessage>) =>
    setMessages((current) =>
      current.map((message, at) => at === index ? { ...message, ...change } : message)
    );

  return (
    <section className="appearance-section" aria-labelledby="appearance-welcome">
      <h2 id="appearance-welcome">{t("appearance.welcome.title")}</h2>
      <p className="muted">{t("appearance.welcome.description")}</p>
      <form className="form" onSubmit={save}>
        {messages.length === 0 && <p className="muted">{t("appearance.welcome.empty")}</p>}
        {messages.map((message, index) => (
          <div key={index} className="welcome-row">
            <div className="field">
              <label className="field-label" htmlFor={`welcome-user-${index}`}>
                {t("appearance.welcome.user", { number: index + 1 })}
              </label>
              <textarea
                id={`welcome-user-${index}`}
                className="input"
                rows={2}
                maxLength={2000}
                value={message.user}
                onChange={(event) => update(index, { user: event.target.value })}
              />
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`welcome-response-${index}`}>
                {t("appearance.welcome.response", { number: index + 1 })}
              </label>
              <textarea
                id={`welcome-response-${index}`}
                className="input"
                rows={2}
                maxLength={2000}
                value={message.response}
                onChange={(event) => update(index, { response: event.target.value })}
              />
            </div>
            <button
              type="button"
              className="button secondary"
              aria-label={t("appearance.welcome.removeLabel", { number: index + 1 })}
              onClick={() => setMessages((current) => current.filter((_, at) => at !== index))}
            >
              {t("appearance.welcome.remove")}
            </button>
          </div>
        ))}
        <div className="form-actions">
          <button
            type="button"
            className="button secondary"
            disabled={messages.length >= MAX_WELCOME_MESSAGES}
            onClick={() => setMessages((current) => [...current, { user: "", response: "" }])}
          >
            {t("appearance.welcome.add")}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {t("appearance.welcome.save")}
          </button>
        </div>
      </form>
    </section>
  );
}
