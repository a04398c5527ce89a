import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { fromListed, fromParsed, namesFile, type ThreadFile } from "./thread_files.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

/**
 * The files attached to a thread (`threadSlug` null: the workspace's default thread): read by the server and
 * added to the context of every message of the thread until removed, or until added to the workspace as
 * documents. Loaded with the page; kept in the order the server adds them to the context.
 */
export function useThreadFiles(slug: string, threadSlug: string | null) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<ThreadFile[]>([]);
  const [contextWindow, setContextWindow] = useState<number | null>(null);
  const workspacePath = `/workspace/${encodeURIComponent(slug)}`;
  // Uploads run one after the other, so files join the context in the order they were given.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    const abort = new AbortController();
    const query = threadSlug ? `?threadSlug=${encodeURIComponent(threadSlug)}` : "";
    api(`${workspacePath}/parsed-files${query}`, {
      schema: lazySchema((s) => s.attachments.ParsedFilesAnswer),
      signal: abort.signal,
    })
      .then((answer) => {
        setContextWindow(answer.contextWindow);
        // Files sent while the list was on its way stay after the listed ones.
        setFiles((current) => [
          ...answer.files.map(fromListed),
          ...current.filter((file) => !answer.files.some((listed) => listed.id === file.id)),
        ]);
      })
      .catch((caught: Error) => {
        // A workspace or thread that is gone is the page's to say.
        if (abort.signal.aborted || (caught instanceof ApiError && caught.status === 404)) return;
        toast.error(t("chat.files.loadFailed", { error: caught.message }));
      });
    return () => {
      live.current = false;
      abort.abort();
    };
  }, [workspacePath, threadSlug]);

  const change = useCallback((key: string, update: Partial<ThreadFile> | null) => {
    setFiles((current) =>
      update === null
        ? current.filter((file) => file.key !== key)
        : current.map((file) => file.key === key ? { ...file, ...update } : file)
    );
  }, []);

  /** Sends `documents` to be read into the thread; `refused` gets a toast line for each one the server refuses. */
  const upload = useCallback((documents: File[], refused: (line: string) => void) => {
    const pending = documents.map((file) => ({
      file,
      key: `upload-${crypto.randomUUID()}`,
    }));
    setFiles((current) => [
      ...current,
      ...pending.map(({ file, key }) => ({
        key,
        id: null,
        name: file.name || t("chat.files.unnamed"),
        tokens: 0,
        state: "parsing" as const,
      })),
    ]);
    const run = async () => {
      for (const { file, key } of pending) {
        if (!live.current) return;
        const form = new FormData();
        form.append("file", file);
        if (threadSlug) form.append("threadSlug", threadSlug);
        try {
          const answer = await api(`${workspacePath}/parse`, {
            form,
            schema: lazySchema((s) => s.attachments.ParseAnswer),
          });
          const [row] = answer.files;
          if (!answer.success || !row) throw new Error(answer.error ?? t("chat.files.unknownError"));
          const parsed = fromParsed(row, file.name);
          setFiles((current) => current.map((item) => item.key === key ? parsed : item));
        } catch (caught) {
          change(key, null);
          const sentence = (caught as Error).message || t("chat.files.unknownError");
          refused(
            namesFile(sentence, file.name)
              ? sentence
              : t("chat.files.refused", { name: file.name, error: sentence }),
          );
        }
      }
    };
    queue.current = queue.current.then(run);
    return queue.current;
  }, [workspacePath, threadSlug, change, t]);

  const remove = useCallback(async (file: ThreadFile) => {
    if (file.id === null || file.state !== "ready") return;
    change(file.key, { state: "removing" });
    try {
      await api(`${workspacePath}/delete-parsed-files`, { method: "DELETE", json: { fileIds: [file.id] } });
      change(file.key, null);
    } catch (caught) {
      change(file.key, { state: "ready" });
      toast.error(t("chat.files.removeFailed", { name: file.name, error: (caught as Error).message }));
    }
  }, [workspacePath, change, t]);

  /** Makes the file a document of the workspace (admins and managers); it leaves the thread's files. */
  const addToWorkspace = useCallback(async (file: ThreadFile): Promise<boolean> => {
    if (file.id === null || file.state !== "ready") return false;
    change(file.key, { state: "embedding" });
    try {
      const answer = await api(`${workspacePath}/embed-parsed-file/${file.id}`, {
        method: "POST",
        schema: lazySchema((s) => s.attachments.EmbedParsedFileAnswer),
      });
      if (!answer.success) throw new Error(answer.error ?? t("chat.files.unknownError"));
      change(file.key, null);
      toast.success(t("chat.files.added", { name: file.name }));
      return true;
    } catch (caught) {
      change(file.key, { state: "ready" });
      toast.error(t("chat.files.addFailed", { name: file.name, error: (caught as Error).message }));
      return false;
    }
  }, [workspacePath, change, t]);

  return {
    files,
    contextWindow,
    parsing: files.some((file) => file.state === "parsing"),
    upload,
    remove,
    addToWorkspace,
  };
}
