import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_REFUSAL, DEFAULT_SYSTEM_PROMPT } from "../../../shared/api/workspaces.ts";
import { TextField } from "../../components/TextField.tsx";
import { fetchDefaultPrompt } from "./api.ts";
import { TextAreaField } from "./fields.tsx";
import { ModelOverride } from "./ModelOverride.tsx";
import { PromptHistory } from "./PromptHistory.tsx";
import { chatChanges, chatValuesOf, HISTORY_WARNING_ABOVE, historyTooLong } from "./tab_values.ts";
import type { TabProps } from "./types.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

const MODES = ["chat", "query"] as const;
/** The temperature the server uses for a workspace without its own (server/chat/reply.ts). */
const DEFAULT_TEMPERATURE = 0.7;

/** The chat-settings tab: how the workspace's assistant answers. */
export function ChatTab({ workspace, save, configuredProviders = null }: TabProps) {
  const { t } = useTranslation();
  const k = (key: string, options?: Record<string, unknown>) =>
    t(`workspaceSettings.chat.${key}`, options ?? {});
  // The instance's default prompt (`GET /system/default-system-prompt`): what an empty prompt field means.
  const [instancePrompt, setInstancePrompt] = useState<string | null>(null);
  const [values, setValues] = useState(() => chatValuesOf(workspace, null));
  const set = (key: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  const tooLong = historyTooLong(values.history);
  const defaultPrompt = instancePrompt ?? DEFAULT_SYSTEM_PROMPT;
  const instanceOwnPrompt = defaultPrompt.trim() !== DEFAULT_SYSTEM_PROMPT.trim();

  useEffect(() => {
    const controller = new AbortController();
    // Without it the field keeps showing the built-in prompt as its default.
    fetchDefaultPrompt(controller.signal).then(
      (answer) => setInstancePrompt(answer.defaultSystemPrompt),
      () => {},
    );
    return () => controller.abort();
  }, []);

  // A workspace created with the instance's default stored that text: untouched, it is no prompt of its own.
  useEffect(() => {
    const stored = workspace.openAiPrompt;
    if (instancePrompt === null || stored === null || stored.trim() !== instancePrompt.trim()) return;
    setValues((current) => (current.prompt === stored ? { ...current, prompt: "" } : current));
  }, [instancePrompt]);

  function takePrompt(prompt: string) {
    set("prompt")(prompt);
    const field = document.getElementById("ws-chat-prompt");
    field?.focus();
    field?.scrollIntoView({ block: "center" });
  }

  async function submit() {
    const row = await save(chatChanges(values));
    if (row) setValues(chatValuesOf(row, instancePrompt));
  }

  return (
    <WorkspaceForm id="ws-chat" title={k("title")} description={k("description")} save={submit}>
      <fieldset className="ws-choices">
        <legend className="field-label">{k("mode")}</legend>
        {MODES.map((mode) => (
          <label key={mode} className={`ws-choice${values.mode === mode ? " selected" : ""}`}>
            <input
              type="radio"
              name="chatMode"
              value={mode}
              checked={values.mode === mode}
              onChange={() =>
                set("mode")(mode)}
            />
            <span className="ws-choice-text">
              <span className="ws-choice-name">{k(`modes.${mode}.label`)}</span>
              <span className="ws-choice-meaning">{k(`modes.${mode}.meaning`)}</span>
            </span>
          </label>
        ))}
      </fieldset>

      <div className="ws-field-group">
        <TextField
          id="ws-chat-history"
          name="openAiHistory"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          label={k("history")}
          hint={k("historyHint")}
          value={values.history}
          onChange={(event) => set("history")(event.target.value)}
        />
        {tooLong && (
          <p className="notice warning ws-inline-notice" role="status">
            {k("historyWarning", { max: HISTORY_WARNING_ABOVE })}
          </p>
        )}
      </div>

      <TextAreaField
        id="ws-chat-prompt"
        name="openAiPrompt"
        rows={6}
        maxLength={20_000}
        label={k("prompt")}
        hint={instanceOwnPrompt ? k("promptHintInstance") : k("promptHint")}
        placeholder={defaultPrompt}
        value={values.prompt}
        onValue={set("prompt")}
      />
      <PromptHistory slug={workspace.slug} stored={workspace.openAiPrompt} onUse={takePrompt} />

      <TextAreaField
        id="ws-chat-refusal"
        name="queryRefusalResponse"
        rows={2}
        maxLength={5_000}
        label={k("refusal")}
        hint={k("refusalHint")}
        placeholder={DEFAULT_REFUSAL}
        value={values.refusal}
        onValue={set("refusal")}
      />

      <TextField
        id="ws-chat-temperature"
        name="openAiTemp"
        type="number"
        inputMode="decimal"
        min={0}
        max={2}
        step={0.1}
        label={k("temperature")}
        hint={k("temperatureHint", { value: DEFAULT_TEMPERATURE })}
        placeholder={k("temperaturePlaceholder", { value: DEFAULT_TEMPERATURE })}
        value={values.temperature}
        onChange={(event) => set("temperature")(event.target.value)}
      />

      <ModelOverride
        id="ws-chat"
        namespace="chat.override"
        saved={workspace.chatProvider}
        configured={configuredProviders}
        provider={values.provider}
        model={values.model}
        onProvider={set("provider")}
        onModel={set("model")}
      />
    </WorkspaceForm>
  );
}
