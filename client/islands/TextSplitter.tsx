import { useEffect, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { SystemPreferencesAnswer } from "../../shared/api/embedding.ts";
import { allows } from "../../shared/roles.ts";
import { TextField } from "../components/TextField.tsx";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { useCurrentUser } from "../features/admin/current_user.ts";
import { ReadOnlyContext } from "../features/settings/read_only.ts";
import { SettingsForm } from "../features/settings/SettingsForm.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import type { SetupResults } from "../features/settings/setup.ts";
import { api } from "../lib/api.ts";

const LABELS = "text_splitter_chunk_size,text_splitter_chunk_overlap,max_embed_chunk_size";

interface Values {
  size: string;
  overlap: string;
  maximum: number;
}

/** The size and overlap of chunks, checked here as the server checks them (size 1 to the maximum, overlap below). */
function problems(values: Values, t: TFunction) {
  const size = Number(values.size);
  const overlap = Number(values.overlap);
  const found: { size?: string; overlap?: string } = {};
  if (!Number.isInteger(size) || size < 1) found.size = t("textSplitter.errors.sizeMin");
  else if (size > values.maximum) found.size = t("textSplitter.errors.sizeMax", { max: values.maximum });
  if (!Number.isInteger(overlap) || overlap < 0) found.overlap = t("textSplitter.errors.overlapMin");
  else if (!found.size && overlap >= size) found.overlap = t("textSplitter.errors.overlapSize");
  return found;
}

function TextSplitterForm({ setup }: { setup: SetupResults }) {
  const { t } = useTranslation();
  const viewer = useCurrentUser(setup.MultiUserMode === true);
  const readOnly = viewer.user !== null && !allows(viewer.user.role, "settings:manage");
  const [values, setValues] = useState<Values | null>(null);
  const [saved, setSaved] = useState<Values | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api(`/admin/system-preferences-for?labels=${LABELS}`, {
      schema: SystemPreferencesAnswer,
      signal: controller.signal,
    }).then(({ settings }) => {
      const loaded = {
        size: String(settings.text_splitter_chunk_size ?? ""),
        overlap: String(settings.text_splitter_chunk_overlap ?? ""),
        maximum: Number(settings.max_embed_chunk_size) || 1000,
      };
      setValues(loaded);
      setSaved(loaded);
    }).catch((caught: Error) => {
      if (caught.name !== "AbortError") setLoadError(caught.message);
    });
    return () => controller.abort();
  }, []);

  if (loadError) {
    return <p className="form-error" role="alert">{t("textSplitter.loadFailed", { error: loadError })}</p>;
  }
  if (!values || viewer.loading) return <LoadingBlock label={t("common.loading")} />;
  const found = touched ? problems(values, t) : {};
  const changed = saved !== null && (saved.size !== values.size || saved.overlap !== values.overlap);

  async function save() {
    setTouched(true);
    const current = problems(values!, t);
    if (current.size || current.overlap) throw new Error(current.size ?? current.overlap);
    await api("/admin/system-preferences", {
      json: {
        text_splitter_chunk_size: Number(values!.size),
        text_splitter_chunk_overlap: Number(values!.overlap),
      },
    });
    setSaved(values);
  }

  const set = (key: "size" | "overlap") => (event: { target: { value: string } }) => {
    setTouched(true);
    setValues((current) => current && { ...current, [key]: event.target.value });
  };

  return (
    <ReadOnlyContext.Provider value={readOnly}>
      {readOnly && <p className="notice" role="status">{t("settings.readOnlyNotice")}</p>}
      <SettingsForm
        formId="text-splitter-form"
        showActions
        save={save}
        successKey="textSplitter.saved"
        failureKey="textSplitter.saveFailed"
        disabled={!changed}
      >
        <div className="text-splitter-fields">
          <TextField
            id="text-splitter-size"
            label={t("textSplitter.size.label")}
            hint={t("textSplitter.size.hint", { max: values.maximum })}
            type="number"
            inputMode="numeric"
            min={1}
            max={values.maximum}
            step={1}
            required
            value={values.size}
            onChange={set("size")}
            error={found.size}
          />
          <TextField
            id="text-splitter-overlap"
            label={t("textSplitter.overlap.label")}
            hint={t("textSplitter.overlap.hint")}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            required
            value={values.overlap}
            onChange={set("overlap")}
            error={found.overlap}
          />
        </div>
        <p className="notice">{t("textSplitter.cacheNotice")}</p>
      </SettingsForm>
    </ReadOnlyContext.Provider>
  );
}

/** /settings/text-splitter-preference: how documents are cut into chunks before they are embedded. */
export default function TextSplitter() {
  return (
    <SettingsPage page="text-splitter-preference">
      {(setup) => <TextSplitterForm setup={setup} />}
    </SettingsPage>
  );
}
