import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { TextField } from "../../components/TextField.tsx";
import { toast } from "../../lib/toast.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { fetchVectorCount, resetVectorDatabase } from "./api.ts";
import { SelectField } from "./fields.tsx";
import { THRESHOLDS, vectorChanges, vectorValuesOf } from "./tab_values.ts";
import type { TabProps } from "./types.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

type Props = TabProps & {
  /** The instance's vector database (setup's VectorDB); undefined while loading. */
  vectorDb: string | null | undefined;
  /** Why the instance's settings could not be read (the identifier is then unknown, not unset). */
  setupError: string | null;
  /** Called after a reset: the workspace has no documents any more. */
  onReset: () => void;
};

/** The vector-database tab: what the workspace holds, how retrieval picks snippets, and the reset. */
export function VectorTab({ workspace, save, vectorDb, setupError, onReset }: Props) {
  const { t } = useTranslation();
  const k = (key: string, options?: Record<string, unknown>) =>
    t(`workspaceSettings.vector.${key}`, options ?? {});
  const [values, setValues] = useState(() => vectorValuesOf(workspace));
  const [count, setCount] = useState<number | null>(null);
  /** Why the count could not be read; null while it is known or loading. */
  const [countError, setCountError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [resetting, setResetting] = useState(false);
  // The count asked for on opening is the one before a reset: arriving after it, it would show vectors again.
  const counting = useRef<AbortController | null>(null);

  const loadCount = useCallback((signal?: AbortSignal) => {
    fetchVectorCount(workspace.slug, signal)
      .then((value) => {
        setCount(value);
        setCountError(null);
      })
      .catch((caught: Error) => {
        if (caught.name !== "AbortError") setCountError(caught.message);
      });
  }, [workspace.slug]);
  useEffect(() => {
    const controller = new AbortController();
    counting.current = controller;
    loadCount(controller.signal);
    return () => controller.abort();
  }, [loadCount]);

  async function submit() {
    const row = await save(vectorChanges(values));
    if (row) setValues(vectorValuesOf(row));
  }

  async function reset() {
    setResetting(true);
    try {
      await resetVectorDatabase(workspace.slug, k("resetFailed"));
      toast.success(k("resetDone"));
      setConfirming(false);
      counting.current?.abort();
      setCount(0);
      setCountError(null);
      onReset();
    } catch {
      toast.error(k("resetFailed"));
    }
    setResetting(false);
  }

  const countText = countError !== null
    ? k("countFailed", { error: countError })
    : count === null
    ? t("common.loading")
    : count.toLocaleString();
  const identifier = vectorDb === undefined ? t("common.loading") : vectorDb ?? t("common.notSet");

  return (
    <>
      <section className="card ws-section" aria-labelledby="ws-vector-info-title">
        <h2 id="ws-vector-info-title" className="ws-section-title">{k("infoTitle")}</h2>
        <dl className="ws-facts">
          <div className="ws-fact">
            <dt>{k("count")}</dt>
            <dd data-testid="vector-count">{countText}</dd>
          </div>
          <div className="ws-fact">
            <dt>{k("identifier")}</dt>
            <dd>
              {setupError !== null
                ? t("settings.loadFailed", { error: setupError })
                : <code>{identifier}</code>}
            </dd>
          </div>
        </dl>
        <p className="field-hint">
          {k("identifierHint")} <a href={paths.settings("vector-database")}>{k("identifierLink")}</a>
        </p>
      </section>

      <WorkspaceForm id="ws-vector" title={k("title")} description={k("description")} save={submit}>
        <TextField
          id="ws-vector-topn"
          name="topN"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          label={k("topN")}
          hint={k("topNHint")}
          value={values.topN}
          onChange={(event) => setValues((current) => ({ ...current, topN: event.target.value }))}
        />
        <SelectField
          id="ws-vector-threshold"
          name="similarityThreshold"
          label={k("threshold")}
          hint={k("thresholdHint")}
          value={values.threshold}
          onValue={(threshold) => setValues((current) => ({ ...current, threshold }))}
          options={[...THRESHOLDS].reverse().map((threshold) => ({
            value: String(threshold.value),
            label: k(`thresholds.${threshold.key}`),
          }))}
        />
        <SelectField
          id="ws-vector-search-mode"
          name="vectorSearchMode"
          label={k("searchMode")}
          hint={k("searchModeHint")}
          value={values.searchMode}
          onValue={(searchMode) => setValues((current) => ({ ...current, searchMode }))}
          options={["default", "rerank"].map((mode) => ({ value: mode, label: k(`searchModes.${mode}`) }))}
        />
        <div className="field">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              name="hybridSearch"
              checked={values.hybrid}
              aria-describedby="ws-vector-hybrid-hint"
              onChange={(event) => setValues((current) => ({ ...current, hybrid: event.target.checked }))}
            />
            <span>{k("hybrid")}</span>
          </label>
          <span id="ws-vector-hybrid-hint" className="field-hint">{k("hybridHint")}</span>
        </div>
        <div className="field">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              name="queryRewrite"
              checked={values.rewrite}
              aria-describedby="ws-vector-rewrite-hint"
              onChange={(event) => setValues((current) => ({ ...current, rewrite: event.target.checked }))}
            />
            <span>{k("queryRewrite")}</span>
          </label>
          <span id="ws-vector-rewrite-hint" className="field-hint">{k("queryRewriteHint")}</span>
        </div>
      </WorkspaceForm>

      <section className="card ws-section ws-danger" aria-labelledby="ws-vector-reset-title">
        <h2 id="ws-vector-reset-title" className="ws-section-title">{k("resetTitle")}</h2>
        <p className="muted ws-section-description">{k("resetDescription")}</p>
        <div className="form-actions start">
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {k("resetButton")}
          </button>
        </div>
      </section>
      <ConfirmDialog
        open={confirming}
        title={k("resetConfirmTitle")}
        message={k("resetConfirm", { name: workspace.name })}
        confirmLabel={resetting ? k("resetting") : k("resetButton")}
        busy={resetting}
        onConfirm={reset}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
