import { useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { NativeModelsAnswer } from "../../../shared/api/embedding.ts";
import { toast } from "../../lib/toast.ts";
import { ReadOnlyContext } from "./read_only.ts";
import {
  anyDownloading,
  downloadNativeModel,
  fetchNativeModels,
  nativeModelState,
  receivedMegabytes,
} from "./embedding_jobs.ts";

type Model = NativeModelsAnswer["models"][number];

/**
 * The native engine's models: the built-in one, and neural ones that run once their files are in
 * STORAGE_DIR/models (downloaded here when the server can reach the model hub, or copied there).
 */
export function NativeModels() {
  const { t } = useTranslation();
  const readOnly = useContext(ReadOnlyContext);
  const [models, setModels] = useState<Model[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const downloading = anyDownloading(models);

  useEffect(() => {
    const controller = new AbortController();
    fetchNativeModels(controller.signal).then((answer) => setModels(answer.models)).catch((caught: Error) => {
      if (caught.name !== "AbortError") setError(caught.message);
    });
    return () => controller.abort();
  }, [tick]);

  useEffect(() => {
    if (!downloading) return;
    const timer = setTimeout(() => setTick((value) => value + 1), 1000);
    return () => clearTimeout(timer);
  }, [downloading, models]);

  async function download(model: Model) {
    try {
      await downloadNativeModel(model.id);
      setTick((value) => value + 1);
    } catch (caught) {
      toast.error(t("embedder.native.downloadFailed", { error: (caught as Error).message }));
    }
  }

  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (!models) return null;
  return (
    <ul className="native-models" aria-label={t("embedder.native.title")}>
      {models.map((model) => {
        const megabytes = receivedMegabytes(model);
        const state = nativeModelState(model);
        return (
          <li key={model.id} className="native-model">
            <div>
              <strong>{model.name}</strong>
              <span className="field-hint">
                {t(`embedder.native.models.${model.builtIn ? "builtIn" : "neural"}`)}
              </span>
            </div>
            <div className="native-model-state">
              {state === "builtIn"
                ? <span className="badge">{t("embedder.native.builtIn")}</span>
                : state === "installed"
                ? <span className="badge">{t("embedder.native.installed")}</span>
                : state === "downloading"
                ? <span role="status">{t("embedder.native.downloading", { megabytes })}</span>
                : (
                  <>
                    <span className="field-hint">
                      {t("embedder.native.notInstalled", { size: model.downloadMb ?? "?" })}
                    </span>
                    {!readOnly && (
                      <button
                        type="button"
                        className="button secondary small"
                        onClick={() => download(model)}
                      >
                        {t("embedder.native.download")}
                      </button>
                    )}
                  </>
                )}
            </div>
            {model.download.state === "failed" && model.download.error && (
              <p className="field-error">{model.download.error}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
