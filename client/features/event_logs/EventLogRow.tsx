import { useTranslation } from "react-i18next";
import type { EventLog } from "../../../shared/api/event_logs.ts";
import { formatDate } from "../dates.ts";
import { eventTone, metadataOf } from "./event_logs.ts";

type Props = { log: EventLog; expanded: boolean; onToggle: (id: number) => void };

/**
 * One event: its type, user and time, and a button that shows its metadata in a row beneath. On phones the row
 * is a card (admin.css) and the metadata follows it.
 */
export function EventLogRow({ log, expanded, onToggle }: Props) {
  const { t } = useTranslation();
  const metadata = metadataOf(log.metadata);
  const detailsId = `event-log-${log.id}-metadata`;
  return (
    <>
      <tr className="event-log-row" data-event={log.event}>
        <td data-label={t("eventLogs.table.type")}>
          <span className={`event-badge ${eventTone(log.event)}`}>{log.event}</span>
        </td>
        <td data-label={t("eventLogs.table.user")}>
          {log.user.username ?? <span className="muted">{t("eventLogs.table.noUser")}</span>}
        </td>
        <td data-label={t("eventLogs.table.occurred")}>
          <time dateTime={log.occurredAt}>{formatDate(log.occurredAt)}</time>
        </td>
        <td data-label={t("eventLogs.table.metadata")}>
          {metadata
            ? (
              <button
                type="button"
                className="button secondary event-log-toggle"
                aria-expanded={expanded}
                aria-controls={detailsId}
                onClick={() => onToggle(log.id)}
              >
                {expanded ? t("eventLogs.metadata.hide") : t("eventLogs.metadata.show")}
              </button>
            )
            : <span className="muted">{t("eventLogs.metadata.none")}</span>}
        </td>
      </tr>
      {metadata && expanded && (
        <tr className="event-log-metadata" id={detailsId}>
          <td colSpan={4} data-label={t("eventLogs.metadata.label")}>
            <pre>{JSON.stringify(metadata, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
