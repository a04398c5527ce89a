import {
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  memo,
  useEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { MAX_MESSAGE_CHARS } from "../../../shared/limits.ts";
import { keepToastsAbove, toastSlot } from "../../lib/toast.ts";
import { checkImages, MAX_IMAGES, readAsDataUrl } from "./attachments.ts";
import type { ChatAttachment } from "./messages.ts";
import { CloseIcon, PaperclipIcon } from "./icons.tsx";
import { sortAttachments, type ThreadFile } from "./thread_files.ts";
import { useThreadFiles } from "./use_thread_files.ts";
import { ThreadFiles } from "./ThreadFiles.tsx";
import { MicButton } from "../speech/MicButton.tsx";

type Attached = ChatAttachment & { id: string };

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; Stop while an answer streams. The attach button,
 * a paste or a drop take files. Images (PNG, JPEG, WebP, GIF; at most 5 of 10 MB each) go with the next
 * message and show as previews that can be removed before sending. Any other file is read by the server into
 * the thread's context and shows as a chip until removed (or, for admins and managers, added to the
 * workspace); sending waits until the files being read are in. The files refused at once are named together
 * in one toast. Toasts rise above the composer, so none covers Send or the text being typed.
 */
export const Composer = memo(function Composer(
  { slug, threadSlug, canAddToWorkspace, busy, agentActive, onSend, onStop, onDocumentAdded }: {
    slug: string;
    /** An agent session is open: messages go to the agent, /exit ends it. */
    agentActive?: boolean;
    threadSlug: string | null;
    canAddToWorkspace: boolean;
    busy: boolean;
    onSend: (message: string, attachments: ChatAttachment[]) => void;
    onStop: () => void;
    /** A file became a document of the workspace. */
    onDocumentAdded?: () => void;
  },
) {
  const { t } = useTranslation();
  const threadFiles = useThreadFiles(slug, threadSlug);
  const [text, setText] = useState("");
  const [images, setImages] = useState<Attached[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const refusals = useRef(toastSlot());
  // The count as of the last change, so that two quick additions cannot together pass the limit.
  const count = useRef(0);

  useEffect(() => (form.current ? keepToastsAbove(form.current) : undefined), []);

  async function attach(files: File[]) {
    if (files.length === 0) return;
    const { images: imageFiles, documents } = sortAttachments(files);
    const { accepted, rejected } = checkImages(imageFiles, count.current);
    count.current += accepted.length;
    const problems: string[] = [];
    // While documents are still being read the toast stays (a slow server must not split it in two).
    const refused = (line: string) => {
      problems.push(line);
      refusals.current.show("error", problems.join("\n"), { keep: true });
    };
    // The documents start at once; their refusals join the same toast as they come.
    const read = threadFiles.upload(documents, refused);
    for (const rejection of rejected) {
      if (rejection.reason === "size") {
        problems.push(t("chat.attachments.tooLarge", { name: rejection.name }));
      }
    }
    if (rejected.some((rejection) => rejection.reason === "count")) {
      problems.push(t("chat.attachments.tooMany", { max: MAX_IMAGES }));
    }
    for (const file of accepted) {
      try {
        const image = await readAsDataUrl(file);
        setImages((current) => [...current, { ...image, id: crypto.randomUUID() }]);
      } catch {
        count.current -= 1;
        problems.push(t("chat.attachments.readFailed", { name: file.name }));
      }
    }
    if (problems.length > 0) refusals.current.show("error", problems.join("\n"), { keep: true });
    await read;
    if (problems.length > 0) refusals.current.show("error", problems.join("\n"));
  }

  const remove = (id: string) => {
    count.current -= 1;
    setImages((current) => current.filter((image) => image.id !== id));
  };

  const addToWorkspace = async (file: ThreadFile) => {
    if (await threadFiles.addToWorkspace(file)) onDocumentAdded?.();
  };

  const tooLong = text.length > MAX_MESSAGE_CHARS;
  // A file still being read would miss the message: sending waits for it.
  const waiting = threadFiles.parsing;
  const send = () => {
    if (busy || waiting || !text.trim() || tooLong) return;
    onSend(text, images.map(({ name, mime, dataUrl }) => ({ name, mime, dataUrl })));
    setText("");
    setImages([]);
    count.current = 0;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  const paste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return;
    // A file alone replaces the paste; text copied together with a file is still pasted.
    if (!event.clipboardData.types.includes("text/plain")) event.preventDefault();
    attach(files);
  };
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes("Files");
  const drop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    attach(Array.from(event.dataTransfer.files));
  };

  return (
    <form
      ref={form}
      className={`composer${images.length || threadFiles.files.length ? " has-attachments" : ""}${
        dragging ? " dragging" : ""
      }`}
      onSubmit={submit}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={drop}
    >
      <ThreadFiles
        files={threadFiles.files}
        contextWindow={threadFiles.contextWindow}
        canAddToWorkspace={canAddToWorkspace}
        onRemove={threadFiles.remove}
        onAddToWorkspace={addToWorkspace}
      />
      {images.length > 0 && (
        <ul className="composer-attachments" aria-label={t("chat.attachments.label")}>
          {images.map((image) => (
            <li key={image.id} className="composer-attachment">
              <img src={image.dataUrl} alt={image.name} title={image.name} />
              <button
                type="button"
                className="composer-attachment-remove"
                aria-label={t("chat.attachments.remove", { name: image.name })}
                title={t("chat.attachments.remove", { name: image.name })}
                onClick={() => remove(image.id)}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      {dragging && <p className="composer-drop-hint" aria-hidden="true">{t("chat.attachments.dropHint")}</p>}
      <button
        type="button"
        className="composer-attach"
        aria-label={t("chat.attachments.attach")}
        title={t("chat.attachments.attach")}
        onClick={() => picker.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-testid="file-input"
        onChange={(event) => {
          attach(Array.from(event.target.files ?? []));
          event.target.value = "";
        }}
      />
      <MicButton
        onText={(heard) => setText((current) => current.trim() ? `${current.trimEnd()} ${heard}` : heard)}
      />
      <label className="visually-hidden" htmlFor="chat-input">{t("chat.inputLabel")}</label>
      <textarea
        id="chat-input"
        className="composer-input"
        rows={1}
        placeholder={agentActive ? t("chat.agent.placeholder") : t("chat.placeholder")}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
        onPaste={paste}
        aria-invalid={tooLong || undefined}
        aria-describedby={tooLong ? "chat-input-too-long" : undefined}
      />
      {tooLong && (
        <p id="chat-input-too-long" className="form-error composer-too-long" role="alert">
          {t("chat.tooLong", {
            max: MAX_MESSAGE_CHARS.toLocaleString("en"),
            count: text.length.toLocaleString("en"),
          })}
        </p>
      )}
      {busy
        ? (
          <button type="button" className="button secondary" onClick={onStop}>
            {agentActive ? t("chat.agent.exit") : t("chat.stop")}
          </button>
        )
        : (
          <button
            type="submit"
            className="button primary"
            disabled={!text.trim() || tooLong || waiting}
            title={waiting ? t("chat.files.waitToSend") : undefined}
          >
            {t("chat.send")}
          </button>
        )}
    </form>
  );
});
