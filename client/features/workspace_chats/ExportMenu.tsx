import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatExportType } from "../../../shared/api/chat_export.ts";
import { EXPORT_MENU } from "../../../shared/api/workspace_chats.ts";
import { useDismiss } from "../../components/use_dismiss.ts";
import { apiBlob } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { exportPath, saveFile } from "./workspace_chats.ts";

/** "Export": a menu of the four formats; choosing one downloads every workspace chat as that file. */
export function ExportMenu() {
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

  async function download(type: ChatExportType) {
    setOpen(false);
    button.current?.focus();
    setBusy(true);
    try {
      const blob = await apiBlob(exportPath(type));
      saveFile(blob ?? new Blob([]), type);
      toast.success(t("workspaceChats.export.done", { name: t(`workspaceChats.export.types.${type}`) }));
    } catch {
      toast.error(t("workspaceChats.export.failed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      className="export-menu"
      ref={root}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="button primary"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-haspopup="true"
        disabled={busy}
        onClick={() => setOpen(!open)}
      >
        {busy ? t("workspaceChats.export.busy") : t("workspaceChats.export.open")}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          id={id}
          ref={items}
          className="export-menu-items"
          role="group"
          aria-label={t("workspaceChats.export.menu")}
        >
          {EXPORT_MENU.map(({ type }) => (
            <button
              key={type}
              type="button"
              className="export-menu-item"
              onClick={() => void download(type)}
            >
              {t(`workspaceChats.export.types.${type}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
