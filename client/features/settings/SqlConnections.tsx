import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AgentSettingsView } from "../../../shared/api/agents.ts";

type Connection = AgentSettingsView["sqlConnections"][number];

/** The SQL skill's databases: SQLite/libSQL files on the server, named; the paths are never shown again. */
export function SqlConnections(
  { connections, busy, onSave }: {
    connections: Connection[];
    busy: boolean;
    onSave: (
      next: { database_id: string; engine: "sqlite"; connectionString?: string }[],
      message: string,
    ) => Promise<boolean>;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [path, setPath] = useState("");
  const kept = connections.map((connection) => ({
    database_id: connection.database_id,
    engine: "sqlite" as const,
  }));
  return (
    <section className="card" aria-labelledby="agent-sql-title">
      <h2 id="agent-sql-title">{t("agents.sql.title")}</h2>
      <p className="muted small">{t("agents.sql.intro")}</p>
      <p className="notice small" role="note">{t("agents.sql.engines")}</p>
      {connections.length === 0
        ? <p className="muted">{t("agents.sql.none")}</p>
        : (
          <ul className="agent-skill-list sql-connections">
            {connections.map((connection) => (
              <li key={connection.database_id} className="agent-skill">
                <span>{connection.database_id}</span>
                <button
                  type="button"
                  className="button danger small"
                  disabled={busy}
                  onClick={() =>
                    onSave(
                      kept.filter((entry) => entry.database_id !== connection.database_id),
                      t("agents.sql.removed", { name: connection.database_id }),
                    )}
                >
                  {t("agents.sql.remove")}
                </button>
              </li>
            ))}
          </ul>
        )}
      <form
        className="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const saved = await onSave(
            [...kept.filter((entry) => entry.database_id !== name.trim()), {
              database_id: name.trim(),
              engine: "sqlite",
              connectionString: path.trim(),
            }],
            t("agents.sql.added", { name: name.trim() }),
          );
          // A refused database stays in the form, to be corrected.
          if (!saved) return;
          setName("");
          setPath("");
        }}
      >
        <label className="field">
          <span>{t("agents.sql.name")}</span>
          <input
            name="sql-name"
            value={name}
            required
            pattern="[A-Za-z0-9_\-]+"
            maxLength={64}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label className="field">
          <span>{t("agents.sql.path")}</span>
          <input
            name="sql-path"
            value={path}
            required
            placeholder="/srv/data/shop.db"
            onChange={(event) => setPath(event.target.value)}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>{t("agents.sql.add")}</button>
        </div>
      </form>
    </section>
  );
}
