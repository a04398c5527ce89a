import { useTranslation } from "react-i18next";
import { contextUsage, type ThreadFile } from "./thread_files.ts";
import { CloseIcon, FileIcon } from "./icons.tsx";

const number = (value: number) => value.toLocaleString("en");

/**
 * The thread's attached files above the composer: name and token estimate, a spinner while one is read,
 * removed or added to the workspace; under them, how much of the context window they fill.
 */
export function ThreadFiles(
  { files, contextWindow, canAddToWorkspace, onRemove, onAddToWorkspace }: {
    files: ThreadFile[];
    contextWindow: number | null;
    /** Admins and managers: each file can become a document of the workspace. */
    canAddToWorkspace: boolean;
    onRemove: (file: ThreadFile) => void;
    onAddToWorkspace: (file: ThreadFile) => void;
  },
) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  const usage = contextUsage(files, contextWindow);
  const ready = files.some((file) => file.id !== null);
  const values = {
    tokens: number(usage.tokens),
    window: contextWindow ? number(contextWindow) : "",
    // A few tokens of a large window are not "0%".
    percent: usage.percent === 0 && usage.tokens > 0 ? "<1" : usage.percent ?? 0,
  };
  return (
    <>
      <ul className="composer-files" aria-label={t("chat.files.label")}>
        {files.map((file) => {
          const nameId = `thread-file-${file.key}`;
          const busy = file.state !== "ready";
          return (
            <li
              key={file.key}
              className={`composer-file${busy ? " busy" : ""}`}
              aria-busy={busy || undefined}
            >
              <span className="composer-file-icon">
                {busy ? <span className="spinner" aria-hidden="true" /> : <FileIcon />}
              </span>
              <span className="composer-file-body">
                <span className="composer-file-name" id={nameId} title={file.name}>{file.name}</span>
                <span className="composer-file-meta">
                  {file.state === "ready"
                    ? (
                      <span>
                        {t("chat.files.tokens", { count: file.tokens, formatted: number(file.tokens) })}
                      </span>
                    )
                    : (
                      <span role="status">
                        {file.state === "parsing"
                          ? t("chat.files.parsing")
                          : file.state === "removing"
                          ? t("chat.files.removing")
                          : t("chat.files.embedding")}
                      </span>
                    )}
                  {canAddToWorkspace && file.state === "ready" && (
                    <button
                      type="button"
                      className="composer-file-add"
                      aria-describedby={nameId}
                      onClick={() => onAddToWorkspace(file)}
                    >
                      {t("chat.files.addToWorkspace")}
                    </button>
                  )}
                </span>
              </span>
              {file.id !== null && (
                <button
                  type="button"
                  className="composer-file-remove"
                  aria-label={t("chat.files.remove", { name: file.name })}
                  title={t("chat.files.remove", { name: file.name })}
                  disabled={busy}
                  onClick={() => onRemove(file)}
                >
                  <CloseIcon />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {ready && (
        <p className={`composer-context${usage.over ? " over" : ""}`} role={usage.over ? "alert" : undefined}>
          {usage.percent === null
            ? t("chat.files.contextUnknown", values)
            : usage.over
            ? t("chat.files.contextOver", values)
            : t("chat.files.context", values)}
        </p>
      )}
    </>
  );
}
