import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectorImport } from "../../../../shared/api/connectors.ts";
import { toast } from "../../../lib/toast.ts";
import { fetchImport, fetchImports } from "./api.ts";
import { CONNECTOR_FORMS } from "./forms.ts";
import { mergeImports } from "./imports.ts";
import { importDoneMessage } from "./messages.ts";

/** How often a running import's progress is read. */
const POLL_MS = 1000;

/**
 * The document manager's "Data connectors" tab: pick a connector, fill its form, and follow the imports.
 * Imports run on the server: after a reload the running ones are read back and followed again. When one ends,
 * a toast says so (the reference's text of its connector, see `importDoneMessage`) and `onFolder` opens its
 * folder in the library.
 */
export function DataConnectors({ onFolder }: { onFolder: (folder: string) => void }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(CONNECTOR_FORMS[0]?.id ?? "");
  const [imports, setImports] = useState<ConnectorImport[]>([]);
  const announced = useRef(new Set<string>());

  useEffect(() => {
    fetchImports().then((found) => {
      const running = found.filter((entry) => entry.status === "running");
      setImports((current) => mergeImports(current, running));
    }).catch(() => {});
  }, []);

  const ended = useCallback((entry: ConnectorImport) => {
    if (announced.current.has(entry.id)) return;
    announced.current.add(entry.id);
    if (entry.status === "done") {
      toast.success(importDoneMessage(t, entry));
      onFolder(entry.folder);
    } else toast.error(entry.reason ?? t("connectors.progress.failed"));
  }, [onFolder, t]);

  const running = imports.filter((entry) => entry.status === "running").map((entry) => entry.id).join(",");
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      for (const id of running.split(",")) {
        try {
          const fresh = await fetchImport(id);
          setImports((current) => mergeImports(current, [fresh]));
          if (fresh.status !== "running") ended(fresh);
        } catch {
          // Read again at the next tick; an import the server forgot stays as last seen.
        }
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, ended]);

  const chosen = CONNECTOR_FORMS.find((entry) => entry.id === selected);
  return (
    <div className="connectors">
      <div className="connector-list" role="radiogroup" aria-label={t("connectors.heading")}>
        {CONNECTOR_FORMS.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="radio"
            aria-checked={entry.id === selected}
            className={`connector-option${entry.id === selected ? " selected" : ""}`}
            onClick={() => setSelected(entry.id)}
          >
            <span className="connector-name">{t(`connectors.${entry.id}.name`)}</span>
            <span className="muted small">{t(`connectors.${entry.id}.description`)}</span>
          </button>
        ))}
      </div>
      <div className="connector-main">
        {imports.length > 0 && <ImportProgress imports={imports} />}
        {chosen && (
          <chosen.Form
            key={chosen.id}
            onStarted={(started) => setImports((current) => mergeImports(current, [started]))}
          />
        )}
      </div>
    </div>
  );
}

function ImportProgress({ imports }: { imports: ConnectorImport[] }) {
  const { t } = useTranslation();
  return (
    <section className="connector-progress" aria-label={t("connectors.progress.heading")}>
      <h4 className="doc-pane-title">{t("connectors.progress.heading")}</h4>
      <ul className="connector-imports">
        {imports.map((entry) => (
          <li key={entry.id} className={`connector-import ${entry.status}`} data-import={entry.id}>
            <div className="upload-line">
              <span className="upload-name" title={entry.label}>{entry.label}</span>
              <span className="upload-state">{t(`connectors.progress.${entry.status}`)}</span>
            </div>
            {entry.status === "running" && (
              <progress
                className="upload-progress"
                aria-label={t("connectors.progress.of", { label: entry.label })}
              />
            )}
            <p className="muted small connector-counts" aria-live="polite">
              {t("connectors.progress.counts", {
                found: entry.found,
                done: entry.done,
                skipped: entry.skipped,
              })}
            </p>
            {entry.status === "failed" && entry.reason && (
              <p className="upload-error" role="alert">{entry.reason}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
