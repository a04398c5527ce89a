import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "../../components/TextField.tsx";
import { toast } from "../../lib/toast.ts";
import {
  fetchSuggestedMessages,
  MAX_SUGGESTED_MESSAGES,
  saveSuggestedMessages,
  type SuggestedMessage,
} from "./api.ts";
import { TextAreaField } from "./fields.tsx";
import { firstBlankMessage, messagesChanged, messagesFull, trimmedMessages } from "./suggested.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

/** A row of the editor; `key` keeps React's rows apart while rows are added and removed. */
type Row = SuggestedMessage & { key: number };

/**
 * The workspace's suggested chat messages (heading and message), edited as a list: add, change, remove, then
 * Save replaces them all on the server.
 */
export function SuggestedMessagesEditor({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const k = (key: string, options?: Record<string, unknown>) =>
    t(`workspaceSettings.suggested.${key}`, options ?? {});
  const [rows, setRows] = useState<Row[] | null>(null);
  const [saved, setSaved] = useState<string>("[]");
  const [failed, setFailed] = useState(false);
  const nextKey = useRef(0);
  const focusRow = useRef<number | null>(null);

  const toRows = (messages: SuggestedMessage[]): Row[] =>
    messages.map((message) => ({ ...message, key: nextKey.current++ }));

  useEffect(() => {
    const controller = new AbortController();
    fetchSuggestedMessages(slug, controller.signal)
      .then((messages) => {
        setRows(toRows(messages));
        setSaved(JSON.stringify(messages));
      })
      .catch((caught: Error) => {
        if (caught.name === "AbortError") return;
        setFailed(true);
        toast.error(k("loadFailed"));
      });
    return () => controller.abort();
  }, [slug]);

  useEffect(() => {
    if (focusRow.current === null) return;
    document.getElementById(`ws-suggested-heading-${focusRow.current}`)?.focus();
    focusRow.current = null;
  }, [rows]);

  const messages = trimmedMessages(rows ?? []);
  const changed = rows !== null && messagesChanged(messages, saved);

  const update = (key: number, change: Partial<SuggestedMessage>) =>
    setRows((current) => current?.map((row) => (row.key === key ? { ...row, ...change } : row)) ?? null);

  function add() {
    const key = nextKey.current++;
    focusRow.current = key;
    setRows((current) => [...(current ?? []), { key, heading: "", message: "" }]);
  }

  async function submit() {
    const blank = firstBlankMessage(messages);
    if (blank !== null) throw new Error(k("emptyMessage", { number: blank }));
    await saveSuggestedMessages(slug, messages, k("refused"));
    setSaved(JSON.stringify(messages));
    setRows(toRows(messages));
  }

  const full = messagesFull(rows?.length ?? 0);

  return (
    <WorkspaceForm
      id="ws-suggested"
      title={k("title")}
      description={k("description")}
      save={submit}
      savedMessage={k("saved")}
      saveLabel={k("save")}
      canSave={changed}
    >
      {failed && <p className="form-error" role="alert">{k("loadFailed")}</p>}
      {!failed && rows === null && <p className="muted">{k("loading")}</p>}
      {rows && rows.length === 0 && <p className="muted">{k("none")}</p>}
      {rows && rows.length > 0 && (
        <ol className="ws-suggestions" aria-label={k("title")}>
          {rows.map((row, index) => (
            <li key={row.key} className="ws-suggestion">
              <fieldset className="ws-suggestion-fields">
                <legend className="ws-suggestion-legend">{k("item", { number: index + 1 })}</legend>
                <TextField
                  id={`ws-suggested-heading-${row.key}`}
                  label={k("heading")}
                  maxLength={200}
                  placeholder={k("headingPlaceholder")}
                  value={row.heading}
                  onChange={(event) => update(row.key, { heading: event.target.value })}
                />
                <TextAreaField
                  id={`ws-suggested-message-${row.key}`}
                  label={k("message")}
                  rows={2}
                  maxLength={2000}
                  placeholder={k("messagePlaceholder")}
                  value={row.message}
                  onValue={(message) => update(row.key, { message })}
                />
                <div className="form-actions start">
                  <button
                    type="button"
                    className="button secondary"
                    aria-label={k("removeLabel", { number: index + 1 })}
                    onClick={() =>
                      setRows((current) => current?.filter((entry) => entry.key !== row.key) ?? null)}
                  >
                    {k("remove")}
                  </button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      {rows && (
        <div className="ws-suggestions-add">
          <button type="button" className="button secondary" onClick={add} disabled={full}>
            {k("add")}
          </button>
          {full && <span className="field-hint">{k("limit", { max: MAX_SUGGESTED_MESSAGES })}</span>}
          {changed && <span className="field-hint">{k("unsaved")}</span>}
        </div>
      )}
    </WorkspaceForm>
  );
}
