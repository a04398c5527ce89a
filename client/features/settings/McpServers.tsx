import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { McpServerView } from "../../../shared/api/mcp.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { api } from "../../lib/api.ts";
import { useLatest } from "../../lib/latest.ts";
import { toast } from "../../lib/toast.ts";
import { parsePairs } from "./mcp_form.ts";

const messageOf = (caught: unknown) => caught instanceof Error ? caught.message : String(caught);

interface Draft {
  name: string;
  kind: "stdio" | "http";
  command: string;
  args: string;
  env: string;
  url: string;
  headers: string;
}

const EMPTY: Draft = { name: "", kind: "stdio", command: "", args: "", env: "", url: "", headers: "" };

/** The agents screen's MCP servers: each with its switch, state and tools (each with its switch), and a form to add one. */
export function McpServers() {
  const { t } = useTranslation();
  const [servers, setServers] = useState<McpServerView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [deleting, setDeleting] = useState<string | null>(null);
  // A server added, toggled or removed before the first list arrived stays as the server now has it.
  const order = useLatest();

  const load = useCallback(async (path = "/mcp-servers/list") => {
    const current = order.start();
    try {
      const answer = await api<{ servers: McpServerView[] }>(path);
      if (!current()) return;
      setServers(answer.servers);
      setLoadError(null);
    } catch (caught) {
      if (!current()) return;
      setLoadError(messageOf(caught));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function act(path: string, json: unknown, success: string) {
    setBusy(true);
    try {
      const answer = await api<{ success: boolean; error: string | null }>(path, { json });
      if (answer.success) toast.success(success);
      else toast.error(t("agents.mcp.failed", { error: answer.error ?? "" }));
      await load();
    } catch (caught) {
      toast.error(t("agents.mcp.failed", { error: messageOf(caught) }));
    } finally {
      setBusy(false);
    }
  }

  async function add() {
    const env = parsePairs(draft.env, "=");
    const headers = parsePairs(draft.headers, ":");
    const server = draft.kind === "stdio"
      ? {
        command: draft.command.trim(),
        args: draft.args.split("\n").map((line) => line.trim()).filter(Boolean),
        ...(Object.keys(env).length ? { env } : {}),
      }
      : { type: "streamable", url: draft.url.trim(), ...(Object.keys(headers).length ? { headers } : {}) };
    await act(
      "/mcp-servers/save",
      { name: draft.name.trim(), server },
      t("agents.mcp.added", { name: draft.name }),
    );
    setDraft(EMPTY);
  }

  return (
    <section className="card" aria-labelledby="agent-mcp-title">
      <h2 id="agent-mcp-title">{t("agents.mcp.title")}</h2>
      <p className="muted small">{t("agents.mcp.intro")}</p>
      <p className="notice small" role="note">{t("agents.mcp.stdioWarning")}</p>
      {loadError && (
        <p className="form-error" role="alert">{t("agents.mcp.loadFailed", { error: loadError })}</p>
      )}
      {!servers && !loadError && <LoadingBlock label={t("agents.mcp.starting")} />}
      {servers && servers.length === 0 && <p className="muted">{t("agents.mcp.none")}</p>}
      {servers && servers.length > 0 && (
        <ul className="agent-skill-list mcp-servers">
          {servers.map((server) => {
            const suppressed = server.config?.anythingllm?.suppressedTools ?? [];
            return (
              <li key={server.name} className="agent-skill mcp-server" data-server={server.name}>
                <label className="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={server.enabled}
                    disabled={busy}
                    onChange={(event) =>
                      act(
                        "/mcp-servers/toggle",
                        { name: server.name },
                        t(event.target.checked ? "agents.mcp.on" : "agents.mcp.off", { name: server.name }),
                      )}
                  />
                  <span>{server.name}</span>
                </label>
                <p className="muted small">
                  {t(`agents.mcp.kinds.${server.kind}`)} · {server.running
                    ? t("agents.mcp.running", { pid: server.process?.pid ?? "–" })
                    : server.enabled
                    ? t("agents.mcp.stopped")
                    : t("agents.mcp.disabled")}
                </p>
                {server.config && (
                  <p className="small mcp-config">
                    <code>
                      {"command" in server.config
                        ? [server.config.command, ...(server.config.args ?? [])].join(" ")
                        : server.config.url}
                    </code>
                  </p>
                )}
                {server.error && <p className="form-error small" role="alert">{server.error}</p>}
                {server.tools.length > 0 && (
                  <ul className="mcp-tools" aria-label={t("agents.mcp.tools", { name: server.name })}>
                    {server.tools.map((tool) => (
                      <li key={tool.name}>
                        <label className="switch">
                          <input
                            type="checkbox"
                            role="switch"
                            checked={!suppressed.includes(tool.name)}
                            disabled={busy}
                            onChange={(event) =>
                              act(
                                "/mcp-servers/toggle-tool",
                                {
                                  serverName: server.name,
                                  toolName: tool.name,
                                  enabled: event.target.checked,
                                },
                                t(event.target.checked ? "agents.mcp.toolOn" : "agents.mcp.toolOff", {
                                  name: tool.name,
                                }),
                              )}
                          />
                          <span>{tool.name}</span>
                        </label>
                        {tool.description && <p className="muted small">{tool.description}</p>}
                      </li>
                    ))}
                  </ul>
                )}
                <div className="form-actions">
                  <button
                    type="button"
                    className="button danger small"
                    disabled={busy}
                    onClick={() => setDeleting(server.name)}
                  >
                    {t("agents.mcp.delete")}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await load("/mcp-servers/force-reload");
            setBusy(false);
          }}
        >
          {t("agents.mcp.reload")}
        </button>
      </div>

      <form
        className="form mcp-add"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <h3>{t("agents.mcp.add")}</h3>
        <label className="field">
          <span>{t("agents.mcp.fields.name")}</span>
          <input
            name="mcp-name"
            value={draft.name}
            required
            pattern="[A-Za-z0-9_\-]+"
            maxLength={40}
            onChange={(event) => setDraft({ ...draft, name: event.target.value })}
          />
        </label>
        <label className="field">
          <span>{t("agents.mcp.fields.kind")}</span>
          <select
            name="mcp-kind"
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.target.value as Draft["kind"] })}
          >
            <option value="stdio">{t("agents.mcp.kinds.stdio")}</option>
            <option value="http">{t("agents.mcp.kinds.http")}</option>
          </select>
        </label>
        {draft.kind === "stdio"
          ? (
            <>
              <label className="field">
                <span>{t("agents.mcp.fields.command")}</span>
                <input
                  name="mcp-command"
                  value={draft.command}
                  required
                  placeholder="npx"
                  onChange={(event) => setDraft({ ...draft, command: event.target.value })}
                />
              </label>
              <label className="field">
                <span>{t("agents.mcp.fields.args")}</span>
                <textarea
                  name="mcp-args"
                  rows={3}
                  value={draft.args}
                  onChange={(event) => setDraft({ ...draft, args: event.target.value })}
                />
              </label>
              <label className="field">
                <span>{t("agents.mcp.fields.env")}</span>
                <textarea
                  name="mcp-env"
                  rows={2}
                  value={draft.env}
                  placeholder="API_KEY=…"
                  onChange={(event) => setDraft({ ...draft, env: event.target.value })}
                />
              </label>
              <p className="notice small">{t("agents.mcp.stdioRuns")}</p>
            </>
          )
          : (
            <>
              <label className="field">
                <span>{t("agents.mcp.fields.url")}</span>
                <input
                  name="mcp-url"
                  type="url"
                  value={draft.url}
                  required
                  placeholder="https://…/mcp"
                  onChange={(event) => setDraft({ ...draft, url: event.target.value })}
                />
              </label>
              <label className="field">
                <span>{t("agents.mcp.fields.headers")}</span>
                <textarea
                  name="mcp-headers"
                  rows={2}
                  value={draft.headers}
                  placeholder="Authorization: Bearer …"
                  onChange={(event) => setDraft({ ...draft, headers: event.target.value })}
                />
              </label>
            </>
          )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>{t("agents.mcp.save")}</button>
        </div>
      </form>
      <ConfirmDialog
        open={deleting !== null}
        title={t("agents.mcp.deleteTitle")}
        message={t("agents.mcp.deleteConfirm", { name: deleting ?? "" })}
        confirmLabel={t("agents.mcp.delete")}
        busy={busy}
        onConfirm={async () => {
          const name = deleting!;
          await act("/mcp-servers/delete", { name }, t("agents.mcp.deleted", { name }));
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
