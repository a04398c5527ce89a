import { useTranslation } from "react-i18next";
import type { ApiKeyView } from "../../../shared/api/api_keys.ts";
import { formatDate } from "../dates.ts";
import { scopeSummary } from "./api_keys.ts";

type Props = { apiKey: ApiKeyView; busy: boolean; onDelete: (key: ApiKeyView) => void };

/** One API key: a table row on wide screens, a card on phones (admin.css). The key itself is masked. */
export function ApiKeyRow({ apiKey, busy, onDelete }: Props) {
  const { t } = useTranslation();
  const summary = scopeSummary(apiKey);
  return (
    <tr>
      <td data-label={t("apiKeys.table.name")}>
        {apiKey.name
          ? <span className="user-name">{apiKey.name}</span>
          : <span className="muted">{t("apiKeys.table.unnamed")}</span>}
      </td>
      <td data-label={t("apiKeys.table.key")}>
        <code className="invite-code api-key-secret">{apiKey.secret}</code>
      </td>
      <td data-label={t("apiKeys.table.scope")}>
        <div className="api-key-scope">
          <span className={`status-badge ${summary.scope === "admin" ? "off" : "on"}`}>
            {t(`apiKeys.scope.${summary.scope}.short`)}
          </span>
          {summary.scope === "workspaces" && (
            <>
              <span>
                {summary.workspaces.length > 0
                  ? summary.workspaces.join(", ")
                  : <span className="muted">{t("apiKeys.table.noWorkspaces")}</span>}
              </span>
              <span className="muted">
                {summary.permissions.map((permission) => t(`apiKeys.permissions.${permission}.short`)).join(
                  ", ",
                )}
              </span>
            </>
          )}
        </div>
      </td>
      <td data-label={t("apiKeys.table.rateLimit")}>
        {apiKey.rateLimit === null
          ? <span className="muted">{t("apiKeys.table.noLimit")}</span>
          : t("apiKeys.table.perMinute", { count: apiKey.rateLimit })}
      </td>
      <td data-label={t("apiKeys.table.createdBy")}>
        {apiKey.createdBy?.username ?? <span className="muted">{t("apiKeys.table.owner")}</span>}
      </td>
      <td data-label={t("apiKeys.table.created")}>{formatDate(apiKey.createdAt)}</td>
      <td data-label={t("apiKeys.table.lastUsed")}>
        {apiKey.lastUsedAt
          ? formatDate(apiKey.lastUsedAt)
          : <span className="muted">{t("apiKeys.table.never")}</span>}
      </td>
      <td data-label={t("apiKeys.table.actions")}>
        <div className="row-actions">
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => onDelete(apiKey)}
            aria-label={t("apiKeys.delete.label", { name: apiKey.name ?? apiKey.secret })}
          >
            {t("apiKeys.delete.open")}
          </button>
        </div>
      </td>
    </tr>
  );
}
