import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ThreadExportType } from "../../../shared/api/chat_export.ts";
import { useDismiss } from "../../components/use_dismiss.ts";
import { toast } from "../../lib/toast.ts";
import { messageOf } from "../admin/requests.ts";
import { downloadChatExport, EXPORT_CHAT_TYPES } from "./export_chat.ts";

type Props = { slug: string; threadSlug: string | null; disabled: boolean };

/**
 * The chat header's "Export" (the reference's chat-settings menu): this workspace's or thread's chat as a PDF,
 * Markdown, plain text, JSON or HTML file. Shown once the chat has messages, as the reference's.
 */
export function ExportChatMenu({ slug, threadSlug, disabled }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, root, button);
  useEffect(() => {
    if (open) items.current?.querySelector<HTMLButtonElement>("button")?.focus();
  }, [open]);

  async function download(type: ThreadExportType) {
    setOpen(false);
    button.current?.focus();
    setBusy(true);
    try {
      await downloadChatExport(type, slug, threadSlug);
      toast.success(t("chat.export.done", { name: t(`chat.export.types.${type}`) }));
    } catch (caught) {
      toast.error(t("chat.export.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      className="export-menu chat-export-menu"
      ref={root}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="button secondary"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-haspopup="true"
        disabled={busy || disabled}
        onClick={() => setOpen(!open)}
      >
        {busy ? t("chat.export.busy") : t("chat.export.open")}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          id={id}
          ref={items}
          className="export-menu-items"
          role="group"
          aria-label={t("chat.export.menu")}
        >
          {EXPORT_CHAT_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              className="export-menu-item"
              onClick={() => void download(type)}
            >
              {t(`chat.export.types.${type}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
