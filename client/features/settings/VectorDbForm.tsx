import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import { ProviderPicker } from "./ProviderPicker.tsx";
import { SettingsForm } from "./SettingsForm.tsx";
import { type SetupResults, updateEnv } from "./setup.ts";

/** Only the databases built into this version can be chosen; today that is LanceDB. */
const SELECTABLE_DBS = VECTOR_DBS.filter((database) => database.builtIn);

type Props = {
  setup: SetupResults;
  formId: string;
  showActions: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** The vector database choice with the instance's current value. */
export function VectorDbForm({ setup, formId, showActions, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  const saved = SELECTABLE_DBS.find((database) => database.id === setup.VectorDB)?.id;
  const [selected, setSelected] = useState<string>(saved ?? SELECTABLE_DBS[0].id);
  const [current, setCurrent] = useState(setup.VectorDB);
  const locked = setup.LockedSettings?.includes("VectorDB") ?? false;
  const currentName = VECTOR_DBS.find((database) => database.id === current)?.name ?? current;

  async function save() {
    const newValues = await updateEnv(locked ? {} : { VectorDB: selected });
    if (newValues.VectorDB) setCurrent(newValues.VectorDB);
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
    >
      <p>
        {currentName ? t("vectorDb.current", { name: currentName }) : t("vectorDb.currentUnset")}
      </p>
      <ProviderPicker
        name="vector-db"
        legend={t("vectorDb.legend")}
        options={SELECTABLE_DBS.map((database) => ({
          id: database.id,
          name: database.name,
          description: t(`vectorDb.providers.${database.id}`),
        }))}
        selected={selected}
        onSelect={setSelected}
        disabled={locked}
      />
      {locked && <p className="field-hint">{t("common.lockedByEnvironment")}</p>}
    </SettingsForm>
  );
}
