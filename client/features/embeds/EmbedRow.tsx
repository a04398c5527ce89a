import { useTranslation } from "react-i18next";
import { type EmbedView, parseAllowlist } from "../../../shared/api/embeds.ts";
import { paths } from "../../../shared/routes.ts";
import { formatDate } from "../dates.ts";

type Props = {
  embed: EmbedView;
  busy: boolean;
  onToggle: (embed: EmbedView, enabled: boolean) => void;
  onEdit: (embed: EmbedView) => void;
  onCode: (embed: EmbedView) => void;
  onDelete: (embed: EmbedView) => void;
};

/** One embed: a table row on wide screens, a card on phones (admin.css). */
export function EmbedRow({ embed, busy, onToggle, onEdit, onCode, onDelete }: Props) {
  const { t } = useTranslation();
  const domains = parseAllowlist(embed.allowlist_domains);
  const label = t("embeds.table.label", { workspace: embed.workspace.name, id: embed.id });
  return (
    <tr>
      <td data-label={t("embeds.table.workspace")}>
        <a href={paths.workspace(embed.workspace.slug)} className="user-name">{embed.workspace.name}</a>
        <span className="muted small">· {t(`embeds.mode.${embed.chat_mode}.short`)}</span>
      </td>
      <td data-label={t("embeds.table.chats")}>{embed._count.embed_chats}</td>
      <td data-label={t("embeds.table.domains")}>
        {domains.length > 0
          ? <span className="embed-domains">{domains.join(", ")}</span>
          : <span className="muted">{t("embeds.table.anySite")}</span>}
      </td>
      <td data-label={t("embeds.table.created")}>{formatDate(embed.createdAt)}</td>
      <td data-label={t("embeds.table.enabled")}>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={embed.enabled}
            disabled={busy}
            onChange={(event) => onToggle(embed, event.target.checked)}
            aria-label={t("embeds.table.toggle", { name: label })}
          />
          <span>{embed.enabled ? t("embeds.table.on") : t("embeds.table.off")}</span>
        </label>
      </td>
      <td data-label={t("embeds.table.actions")}>
        <div className="row-actions">
          <button
            type="button"
            className="button secondary"
            onClick={() => onCode(embed)}
            aria-label={t("embeds.code.label", { name: label })}
          >
            {t("embeds.code.open")}
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={busy}
            onClick={() => onEdit(embed)}
            aria-label={t("embeds.edit.label", { name: label })}
          >
            {t("embeds.edit.open")}
          </button>
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => onDelete(embed)}
            aria-label={t("embeds.delete.label", { name: label })}
          >
            {t("embeds.delete.open")}
          </button>
        </div>
      </td>
    </tr>
  );
}
