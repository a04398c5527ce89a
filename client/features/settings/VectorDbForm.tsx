import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import type { SettingField } from "../../../shared/providers/llm_catalog.ts";
import { isMaskedSecret } from "../../../shared/settings.ts";
import { TextField } from "../../components/TextField.tsx";
import { switchesDatabase } from "./provider_form.ts";
import { ProviderPicker } from "./ProviderPicker.tsx";
import { SettingsForm } from "./SettingsForm.tsx";
import { type SetupResults, updateEnv } from "./setup.ts";
import { useProviderForm } from "./use_provider_form.ts";

/** The databases this version can use: LanceDB (embedded) and the remote ones (docs/vector-databases.md). */
const SELECTABLE_DBS = VECTOR_DBS.filter((database) => database.builtIn);

type Props = {
  setup: SetupResults;
  formId: string;
  showActions: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/**
 * The vector database choice with the chosen database's connection settings. A change applies to new
 * embeddings; what is stored stays in the database it was written to, which the form says before saving.
 */
export function VectorDbForm({ setup, formId, showActions, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  const form = useProviderForm(SELECTABLE_DBS, setup, setup.VectorDB ?? "lancedb");
  const [current, setCurrent] = useState(setup.VectorDB);
  const choiceLocked = form.locked.includes("VectorDB");
  const currentName = VECTOR_DBS.find((database) => database.id === current)?.name ?? current;
  const switching = switchesDatabase(current, form.choice?.id ?? null);

  async function save() {
    const newValues = await updateEnv({
      ...(choiceLocked ? {} : { VectorDB: form.selected }),
      ...form.fieldSettings(),
    });
    form.applySaved(newValues);
    if (newValues.VectorDB) setCurrent(newValues.VectorDB);
  }

  function field(setting: SettingField) {
    const id = `vector-db-${setting.key}`;
    const locked = form.locked.includes(setting.key);
    const hint = [t(`vectorDb.fields.${setting.key}.hint`), locked ? t("common.lockedByEnvironment") : null]
      .filter(Boolean).join(" ");
    const type = setting.type === "url" || setting.type === "password" ? setting.type : "text";
    return (
      <TextField
        key={setting.key}
        id={id}
        name={setting.key}
        type={type}
        label={
          <>
            {t(`vectorDb.fields.${setting.key}.label`)}
            {setting.required && !locked && <span className="required-mark" aria-hidden="true">*</span>}
          </>
        }
        hint={hint}
        required={setting.required && !locked}
        disabled={locked}
        placeholder={setting.placeholder}
        autoComplete={setting.type === "password" ? "new-password" : "off"}
        spellCheck={false}
        value={form.values[setting.key] ?? ""}
        onFocus={(event) => {
          if (setting.type === "password" && isMaskedSecret(event.currentTarget.value)) {
            event.currentTarget
              .select();
          }
        }}
        onChange={(event) => form.setValue(setting.key, event.target.value)}
      />
    );
  }

  return (
    <SettingsForm
      formId={formId}
      showActions={showActions}
      save={save}
      successKey={showActions ? "vectorDb.saved" : undefined}
      failureKey="vectorDb.saveFailed"
      onSaved={onSaved}
      onBusyChange={onBusyChange}
      disabled={!form.choice}
    >
      <p>
        {currentName ? t("vectorDb.current", { name: currentName }) : t("vectorDb.currentUnset")}
      </p>
      <ProviderPicker
        name={`${formId}-choice`}
        legend={t("vectorDb.legend")}
        options={SELECTABLE_DBS.map((database) => ({
          id: database.id,
          name: database.name,
          kind: database.kind,
          description: t(`vectorDb.providers.${database.id}`),
        }))}
        selected={form.selected}
        onSelect={form.select}
        disabled={choiceLocked}
      />
      {choiceLocked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
      {form.choice && form.choice.fields.length > 0 && (
        <section className="provider-form" aria-labelledby={`${formId}-provider`}>
          <h2 id={`${formId}-provider`} className="provider-form-title">
            {t("vectorDb.providerSettings", { name: form.choice.name })}
          </h2>
          <div className="provider-fields">{form.choice.fields.map(field)}</div>
        </section>
      )}
      {switching && (
        <p className="notice warning" role="note" data-testid="vector-db-switch-notice">
          {t("vectorDb.switchNotice", { from: currentName, to: form.choice?.name })}
        </p>
      )}
    </SettingsForm>
  );
}
