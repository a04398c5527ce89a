import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { toastSlot } from "../../lib/toast.ts";
import { updateEmbeddings, uploadFile, uploadLink } from "./api.ts";

export type UploadState = "queued" | "uploading" | "fetching" | "embedding" | "done" | "failed";

export interface Upload {
  id: string;
  name: string;
  state: UploadState;
  /** Bytes sent so far, while uploading. */
  percent: number;
  error?: string;
  /** A link kept in the library without being added to the workspace. */
  libraryOnly?: boolean;
  /** A link: its error shows under the link field instead. */
  link?: boolean;
}

/** The items queued while others were still running: they end in one success toast and one error toast. */
interface Batch {
  pending: number;
  added: { name: string; libraryOnly: boolean }[];
  failed: { name: string; error: string }[];
}

/**
 * Uploads files (and links) one after another: upload with progress, then embed into the workspace. Each item
 * ends done or failed with the server's own message; `onStored` runs when the library gained a document.
 * Items added while others still run join their batch, which reports once: one toast for what was added, one
 * error toast naming each failure with its reason, each rewritten as the batch goes on instead of stacking.
 */
export function useUploads(
  slug: string,
  { onWorkspace, onStored }: { onWorkspace: (workspace: WorkspaceDetail) => void; onStored: () => void },
) {
  const { t } = useTranslation();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const batch = useRef<Batch | null>(null);
  const toasts = useRef({ added: toastSlot(), failed: toastSlot() });

  const update = (id: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.id === id ? { ...upload, ...patch } : upload)));

  function addedMessage(added: Batch["added"]): string {
    if (added.length > 1) return t("documents.upload.addedCount", { count: added.length });
    const [only] = added;
    return t(only.libraryOnly ? "documents.link.inLibrary" : "documents.upload.added", { name: only.name });
  }

  function failedMessage(failed: Batch["failed"]): string {
    if (failed.length === 1) return t("documents.upload.notAdded", failed[0]);
    const lines = failed.map((failure) => t("documents.upload.failure", failure));
    return [t("documents.upload.notAddedCount", { count: failed.length }), ...lines].join("\n");
  }

  /** Counts an item that ended; a failure shows at once, what was added once the batch is over. */
  function settle(outcome: { added: Batch["added"][number] } | { failed: Batch["failed"][number] } | null) {
    const current = batch.current;
    if (!current) return;
    current.pending -= 1;
    if (outcome && "failed" in outcome) {
      current.failed.push(outcome.failed);
      toasts.current.failed.show("error", failedMessage(current.failed));
    } else if (outcome) {
      current.added.push(outcome.added);
    }
    if (current.pending > 0) return;
    batch.current = null;
    if (current.added.length > 0) toasts.current.added.show("success", addedMessage(current.added));
  }

  async function embed(id: string, location: string) {
    update(id, { state: "embedding" });
    const answer = await updateEmbeddings(slug, { adds: [location] });
    if (answer.workspace) onWorkspace(answer.workspace);
    if (answer.message) throw new Error(answer.message);
  }

  async function processFile(id: string, file: File) {
    try {
      update(id, { state: "uploading", percent: 0 });
      let shown = 0;
      const progress = (percent: number) => {
        if (percent !== shown) update(id, { percent: shown = percent });
      };
      const location = await uploadFile(slug, file, progress, {
        failed: t("documents.upload.failed"),
        offline: t("documents.upload.offline"),
      });
      onStored();
      await embed(id, location);
      update(id, { state: "done", percent: 100 });
      settle({ added: { name: file.name, libraryOnly: false } });
    } catch (caught) {
      const message = (caught as Error).message;
      update(id, { state: "failed", error: message });
      settle({ failed: { name: file.name, error: message } });
    }
  }

  function enqueue(item: Upload, work: () => Promise<void>) {
    setUploads((current) => [...current, item]);
    batch.current ??= { pending: 0, added: [], failed: [] };
    batch.current.pending += 1;
    const next = queue.current.then(work);
    queue.current = next;
    return next;
  }

  function addFiles(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const id = crypto.randomUUID();
      enqueue({ id, name: file.name, state: "queued", percent: 0 }, () => processFile(id, file));
    }
  }

  /** Fetches a link into the library and the workspace; rejects with the server's message. */
  function addLink(link: string): Promise<void> {
    const id = crypto.randomUUID();
    let failure: Error | null = null;
    return enqueue({ id, name: link, state: "queued", percent: 0, link: true }, async () => {
      try {
        update(id, { state: "fetching" });
        const location = await uploadLink(slug, link, t("documents.link.failed"));
        onStored();
        if (location) await embed(id, location);
        update(id, { state: "done", percent: 100, libraryOnly: !location });
        settle({ added: { name: link, libraryOnly: !location } });
      } catch (caught) {
        failure = caught as Error;
        update(id, { state: "failed", error: failure.message });
        // A link's error shows under the link field, not in a toast.
        settle(null);
      }
    }).then(() => {
      if (failure) throw failure;
    });
  }

  const busy = uploads.some((upload) => upload.state !== "done" && upload.state !== "failed");
  const clearFinished = () =>
    setUploads((current) => current.filter((upload) => upload.state !== "done" && upload.state !== "failed"));

  return { uploads, busy, addFiles, addLink, clearFinished };
}
