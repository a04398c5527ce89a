import { useTranslation } from "react-i18next";
import type { WorkspaceChat } from "../../../shared/api/workspace_chats.ts";
import { formatDate } from "../dates.ts";
import { preview, responseText } from "./workspace_chats.ts";

/** Which whole text a row asks to see. */
export interface ShownText {
  chatId: number;
  part: "prompt" | "response";
  text: string;
}

type Props = {
  chat: WorkspaceChat;
  busy: boolean;
  onShow: (shown: ShownText) => void;
  onDelete: (chat: WorkspaceChat) => void;
};

/** One chat: a table row on wide screens, a card on phones (admin.css); long texts cut, whole on demand. */
export function ChatRow({ chat, busy, onShow, onDelete }: Props) {
  const { t } = useTranslation();
  const texts = { prompt: chat.prompt, response: responseText(chat.response) };
  return (
    <tr>
      <td data-label={t("workspaceChats.table.id")}>{chat.id}</td>
      <td data-label={t("workspaceChats.table.by")}>
        <span className="user-name">{chat.user.username}</span>
      </td>
      <td data-label={t("workspaceChats.table.workspace")}>{chat.workspace.name}</td>
      {(["prompt", "response"] as const).map((part) => {
        const shown = preview(texts[part]);
        return (
          <td key={part} data-label={t(`workspaceChats.table.${part}`)} className="chat-text-cell">
            {shown.text === ""
              ? <span className="muted">{t("workspaceChats.table.noText")}</span>
              : shown.cut
              ? (
                <button
                  type="button"
                  className="chat-text-more"
                  aria-label={t(`workspaceChats.view.${part}`, { id: chat.id })}
                  title={t(`workspaceChats.view.${part}`, { id: chat.id })}
                  onClick={() => onShow({ chatId: chat.id, part, text: texts[part] })}
                >
                  {shown.text}
                </button>
              )
              : <span className="chat-text">{shown.text}</span>}
          </td>
        );
      })}
      <td data-label={t("workspaceChats.table.at")}>
        <time dateTime={chat.createdAt}>{formatDate(chat.createdAt)}</time>
      </td>
      <td data-label={t("workspaceChats.table.actions")}>
        <div className="row-actions">
          <button
            type="button"
            className="button danger"
            disabled={busy}
            aria-label={t("workspaceChats.delete.label", { id: chat.id })}
            onClick={() => onDelete(chat)}
          >
            {t("workspaceChats.delete.open")}
          </button>
        </div>
      </td>
    </tr>
  );
}
