import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchAccepted } from "./api.ts";
import type { Upload } from "./use_uploads.ts";

function UploadRow({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const label = upload.state === "uploading"
    ? t("documents.state.uploadingPercent", { percent: upload.percent })
    : upload.state === "done" && upload.libraryOnly
    ? t("documents.state.inLibrary")
    : t(`documents.state.${upload.state}`);
  return (
    <li className={`upload ${upload.state}`}>
      <div className="upload-line">
        <span className="upload-name" title={upload.name}>{upload.name}</span>
        <span className="upload-state">{label}</span>
      </div>
      {(upload.state === "uploading" || upload.state === "embedding" || upload.state === "fetching") && (
        <progress
          className="upload-progress"
          max={100}
          value={upload.state === "uploading" ? upload.percent : undefined}
          aria-label={t("documents.upload.progressOf", { name: upload.name })}
        />
      )}
      {upload.error && !upload.link && <p className="upload-error" role="alert">{upload.error}</p>}
    </li>
  );
}

/** The file chooser, the link field and the progress of each upload. */
export function UploadArea(
  { uploads, onFiles, onLink, onClear, dragging }: {
    uploads: Upload[];
    onFiles: (files: FileList) => void;
    onLink: (link: string) => Promise<void>;
    onClear: () => void;
    dragging: boolean;
  },
) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [accepted, setAccepted] = useState<string[] | null>(null);
  const [link, setLink] = useState("");
  const [linkError, setLinkError] = useState<string | null>(null);
  const [fetching, setFetching] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    // Without the list the chooser accepts anything and the server decides.
    fetchAccepted(abort.signal).then(setAccepted).catch(() => {});
    return () => abort.abort();
  }, []);

  async function submitLink(event: FormEvent) {
    event.preventDefault();
    const value = link.trim();
    if (!value) return;
    setFetching(true);
    setLinkError(null);
    try {
      await onLink(value);
      setLink("");
    } catch (caught) {
      setLinkError((caught as Error).message);
    } finally {
      setFetching(false);
    }
  }

  const extensions = accepted?.filter((entry) => entry.startsWith(".")) ?? [];
  const finished = uploads.some((upload) => upload.state === "done" || upload.state === "failed");
  return (
    <div className="doc-upload">
      <div className={`dropzone doc-dropzone${dragging ? " dragging" : ""}`}>
        <p className="doc-drop-hint">{t("documents.upload.dropHint")}</p>
        <button type="button" className="button secondary" onClick={() => input.current?.click()}>
          {t("documents.upload.choose")}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={accepted?.join(",")}
          className="visually-hidden"
          aria-label={t("documents.upload.choose")}
          data-testid="document-input"
          onChange={(event) => {
            if (event.target.files?.length) onFiles(event.target.files);
            event.target.value = "";
          }}
        />
        {extensions.length > 0 && (
          <p className="muted small doc-accepted">
            {t("documents.upload.accepted", { types: extensions.join(" ") })}
          </p>
        )}
      </div>
      <form className="doc-link" onSubmit={submitLink}>
        <label className="visually-hidden" htmlFor="document-link">{t("documents.link.label")}</label>
        <input
          id="document-link"
          className="input"
          type="url"
          inputMode="url"
          placeholder={t("documents.link.placeholder")}
          value={link}
          onChange={(event) => setLink(event.target.value)}
          aria-invalid={linkError ? true : undefined}
          aria-describedby={linkError ? "document-link-error" : undefined}
        />
        <button type="submit" className="button secondary" disabled={fetching || !link.trim()}>
          {fetching ? t("documents.link.fetching") : t("documents.link.add")}
        </button>
      </form>
      {linkError && (
        <p id="document-link-error" className="form-error doc-link-error" role="alert">{linkError}</p>
      )}
      {uploads.length > 0 && (
        <div className="doc-uploads">
          <ul className="upload-list" aria-label={t("documents.upload.listLabel")} aria-live="polite">
            {uploads.map((upload) => <UploadRow key={upload.id} upload={upload} />)}
          </ul>
          {finished && (
            <button type="button" className="link-button small" onClick={onClear}>
              {t("documents.upload.clear")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
