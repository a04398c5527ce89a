import { type DragEvent, memo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ACCEPTED_DOCUMENT_TYPES, UploadAnswer } from "../../../shared/api/documents.ts";
import { UpdateEmbeddingsAnswer, type WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";

const ACCEPT = Object.values(ACCEPTED_DOCUMENT_TYPES).flat().join(",");

type Upload = {
  id: string;
  name: string;
  state: "uploading" | "embedding" | "done" | "failed";
  error?: string;
};

function titleOf(metadata: string | null, fallback: string): string {
  try {
    const parsed = metadata ? JSON.parse(metadata) : null;
    return typeof parsed?.title === "string" ? parsed.title : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Upload documents into the workspace (upload, then embed) and list what it holds. Memoized: an answer
 * streaming beside it does not render it again.
 */
export const DocumentsPanel = memo(function DocumentsPanel(
  { workspace, onChange }: { workspace: WorkspaceDetail; onChange: (workspace: WorkspaceDetail) => void },
) {
  const { t } = useTranslation();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const update = (id: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.id === id ? { ...upload, ...patch } : upload)));

  async function uploadOne(file: File) {
    const id = crypto.randomUUID();
    setUploads((current) => [...current, { id, name: file.name, state: "uploading" }]);
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const uploaded = await api(`/workspace/${encodeURIComponent(workspace.slug)}/upload`, {
        form,
        schema: UploadAnswer,
      });
      const location = uploaded.documents?.[0]?.location;
      if (!uploaded.success || !location) throw new Error(uploaded.error ?? t("documents.uploadFailed"));
      update(id, { state: "embedding" });
      const embedded = await api(`/workspace/${encodeURIComponent(workspace.slug)}/update-embeddings`, {
        json: { adds: [location] },
        schema: UpdateEmbeddingsAnswer,
      });
      if (embedded.workspace) onChange(embedded.workspace);
      if (embedded.message) throw new Error(embedded.message);
      update(id, { state: "done" });
      toast.success(t("documents.embedded", { name: file.name }));
    } catch (caught) {
      const message = (caught as Error).message;
      update(id, { state: "failed", error: message });
      toast.error(t("documents.failed", { name: file.name, error: message }));
    }
  }

  async function uploadAll(files: FileList | File[]) {
    for (const file of Array.from(files)) await uploadOne(file);
  }

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) uploadAll(event.dataTransfer.files);
  };

  return (
    <section className="documents" aria-labelledby="documents-heading">
      <h2 id="documents-heading" className="panel-heading">{t("documents.heading")}</h2>
      <div
        className={`dropzone${dragging ? " dragging" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>{t("documents.dropHint")}</p>
        <p className="muted small">{t("documents.accepted", { types: ACCEPT })}</p>
        <button type="button" className="button secondary" onClick={() => input.current?.click()}>
          {t("documents.choose")}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="visually-hidden"
          aria-label={t("documents.choose")}
          data-testid="document-input"
          onChange={(event) => {
            if (event.target.files?.length) uploadAll(event.target.files);
            event.target.value = "";
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul className="upload-list" aria-live="polite">
          {uploads.map((upload) => (
            <li key={upload.id} className={`upload ${upload.state}`}>
              <span className="upload-name">{upload.name}</span>
              <span className="upload-state">{t(`documents.state.${upload.state}`)}</span>
            </li>
          ))}
        </ul>
      )}
      {workspace.documents.length === 0
        ? <p className="muted">{t("documents.empty")}</p>
        : (
          <ul className="document-list" aria-label={t("documents.listLabel")}>
            {workspace.documents.map((document) => (
              <li key={document.id} className="document">{titleOf(document.metadata, document.filename)}</li>
            ))}
          </ul>
        )}
    </section>
  );
});
