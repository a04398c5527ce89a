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
import { MAX_MESSAGE_CHARS } from "../../../shared/api/chat_actions.ts";
import { keepToastsAbove, toastSlot } from "../../lib/toast.ts";
import { checkImages, IMAGE_TYPES, MAX_IMAGES, readAsDataUrl } from "./attachments.ts";
import type { ChatAttachment } from "./messages.ts";
import { CloseIcon, PaperclipIcon } from "./icons.tsx";

type Attached = ChatAttachment & { id: string };

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; Stop while an answer streams. Images (PNG, JPEG,
 * WebP, GIF; at most 5 of 10 MB each) come from the attach button, a paste or a drop, and show as previews
 * that can be removed before sending; the files refused at once are named together in one toast. Toasts rise
 * above it, so none covers Send or the text being typed.
 */
export const Composer = memo(function Composer(
  { busy, onSend, onStop }: {
    busy: boolean;
    onSend: (message: string, attachments: ChatAttachment[]) => void;
    onStop: () => void;
  },
) {
  const { t } = useTranslation();
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
    const { accepted, rejected } = checkImages(files, count.current);
    count.current += accepted.length;
    const problems: string[] = [];
    for (const rejection of rejected) {
      if (rejection.reason === "type") {
        problems.push(t("chat.attachments.wrongType", { name: rejection.name }));
      }
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
    if (problems.length > 0) refusals.current.show("error", problems.join("\n"));
  }

  const remove = (id: string) => {
    count.current -= 1;
    setImages((current) => current.filter((image) => image.id !== id));
  };

  const tooLong = text.length > MAX_MESSAGE_CHARS;
  const send = () => {
    if (busy || !text.trim() || tooLong) return;
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
    const files = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith("image/"));
    if (files.length === 0) return;
    // An image alone replaces the paste; text copied together with an image is still pasted.
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
      className={`composer${images.length ? " has-attachments" : ""}${dragging ? " dragging" : ""}`}
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
        accept={IMAGE_TYPES.join(",")}
        multiple
        hidden
        data-testid="image-input"
        onChange={(event) => {
          attach(Array.from(event.target.files ?? []));
          event.target.value = "";
        }}
      />
      <label className="visually-hidden" htmlFor="chat-input">{t("chat.inputLabel")}</label>
      <textarea
        id="chat-input"
        className="composer-input"
        rows={1}
        placeholder={t("chat.placeholder")}
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
            {t("chat.stop")}
          </button>
        )
        : (
          <button type="submit" className="button primary" disabled={!text.trim() || tooLong}>
            {t("chat.send")}
          </button>
        )}
    </form>
  );
});
