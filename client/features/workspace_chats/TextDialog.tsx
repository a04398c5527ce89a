import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/Dialog.tsx";
import type { ShownText } from "./ChatRow.tsx";

/** The whole prompt or response of a chat, as it was stored (line breaks kept). */
export function TextDialog({ shown, onClose }: { shown: ShownText | null; onClose: () => void }) {
  const { t } = useTranslation();
  const title = shown
    ? t(`workspaceChats.view.${shown.part}Title`, { id: shown.chatId })
    : t("workspaceChats.view.title");
  return (
    <Dialog open={shown !== null} title={title} onClose={onClose}>
      <div className="form">
        <pre className="chat-full-text" tabIndex={0}>{shown?.text}</pre>
        <div className="form-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            {t("workspaceChats.view.close")}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
