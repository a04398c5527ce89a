import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  AGENT_SKILLS,
  type AgentSettingsView,
  type AgentSkillId,
  SEARCH_PROVIDERS,
  type SearchProvider,
} from "../../shared/api/agents.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { SettingsPage } from "../features/settings/SettingsPage.tsx";
import { api } from "../lib/api.ts";
import { McpServers } from "../features/settings/McpServers.tsx";
import { SqlConnections } from "../features/settings/SqlConnections.tsx";
import { toast } from "../lib/toast.ts";

const messageOf = (caught: unknown) => caught instanceof Error ? caught.message : String(caught);

/** What a failed save says before the server's reason. */
type FailureKey = "agents.saveFailed" | "agents.configFailed" | "agents.skills.toggleFailed";

/** The setting each search provider needs (saved through update-env, secrets never shown again). */
const SEARCH_FIELDS: Record<Exclude<SearchProvider, "none">, { key: string; secret: boolean }> = {
  "searxng-engine": { key: "AgentSearXNGApiUrl", secret: false },
  "tavily-search": { key: "AgentTavilyApiKey", secret: true },
  "brave-search": { key: "AgentBraveApiKey", secret: true },
};

function AgentSettingsForm() {
  const { t } = useTranslation();
  const [view, setView] = useState<AgentSettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [limits, setLimits] = useState({ maxSteps: "", timeoutSeconds: "" });
  const [provider, setProvider] = useState<SearchProvider>("none");
  const [searchValue, setSearchValue] = useState("");

  const adopt = useCallback((next: AgentSettingsView) => {
    setView(next);
    setLimits({ maxSteps: String(next.maxSteps), timeoutSeconds: String(next.timeoutSeconds) });
    setProvider(next.searchProvider);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    api<AgentSettingsView>("/agents/settings", { signal: controller.signal })
      .then(adopt)
      .catch((caught: Error) => {
        if (caught.name !== "AbortError") setLoadError(caught.message);
      });
    return () => controller.abort();
  }, [adopt]);

  /**
   * Saves and says so; false when the server refused (the form keeps what was typed). `failure` is the key of
   * the sentence before the server's reason: a skill's switch and a skill's configuration have the spec's own.
   */
  async function save(
    body: Record<string, unknown>,
    success: string,
    failure: FailureKey = "agents.saveFailed",
  ): Promise<boolean> {
    setBusy(true);
    try {
      const answer = await api<{ settings: AgentSettingsView }>("/agents/settings", { json: body });
      adopt(answer.settings);
      toast.success(success);
      return true;
    } catch (caught) {
      toast.error(t(failure, { error: messageOf(caught) }));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function saveSearch() {
    setBusy(true);
    try {
      if (provider !== "none" && searchValue.trim()) {
        await api("/system/update-env", { json: { [SEARCH_FIELDS[provider].key]: searchValue.trim() } });
      }
      setSearchValue("");
    } catch (caught) {
      toast.error(t("agents.configFailed", { error: messageOf(caught) }));
      setBusy(false);
      return;
    }
    setBusy(false);
    await save({ searchProvider: provider }, t("agents.search.saved"), "agents.configFailed");
  }

  if (loadError) {
    return <p className="form-error" role="alert">{t("agents.loadFailed", { error: loadError })}</p>;
  }
  if (!view) return <LoadingBlock label={t("common.loading")} />;

  return (
    <div className="agents-settings">
      {!view.available && <p className="notice" role="status">{t("agents.unavailable")}</p>}
      <p className="muted">{t("agents.howTo")}</p>
      <section className="card" aria-labelledby="agent-skills-title">
        <h2 id="agent-skills-title">{t("agents.skills.title")}</h2>
        <ul className="agent-skill-list">
          {AGENT_SKILLS.map((skill) => {
            const state = view.skills.find((entry) => entry.id === skill.id);
            return (
              <li key={skill.id} className="agent-skill">
                <label className="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={state?.active ?? false}
                    disabled={busy}
                    onChange={(event) =>
                      save(
                        { skills: { [skill.id]: event.target.checked } },
                        t(event.target.checked ? "agents.skills.on" : "agents.skills.off", {
                          name: t(`agents.skills.names.${skill.id}`),
                        }),
                        "agents.skills.toggleFailed",
                      )}
                  />
                  <span>{t(`agents.skills.names.${skill.id as AgentSkillId}`)}</span>
                </label>
                <p className="muted small">{t(`agents.skills.descriptions.${skill.id}`)}</p>
                {state?.active && !state.ready && (
                  <p className="notice small">{t(`agents.skills.needs.${skill.id}`)}</p>
                )}
              </li>
            );
          })}
        </ul>
        <p className="muted small">{t("agents.skills.custom")}</p>
      </section>

      <section className="card" aria-labelledby="agent-search-title">
        <h2 id="agent-search-title">{t("agents.search.title")}</h2>
        <label className="field">
          <span>{t("agents.search.provider")}</span>
          <select
            value={provider}
            disabled={busy}
            onChange={(event) => setProvider(event.target.value as SearchProvider)}
          >
            {SEARCH_PROVIDERS.map((id) => (
              <option key={id} value={id}>{t(`agents.search.providers.${id}`)}</option>
            ))}
          </select>
        </label>
        {provider !== "none" && (
          <label className="field">
            <span>{t(`agents.search.fields.${provider}`)}</span>
            <input
              type={SEARCH_FIELDS[provider].secret ? "password" : "url"}
              value={searchValue}
              autoComplete="off"
              placeholder={view.searchConfigured[provider] ? t("agents.search.keep") : ""}
              onChange={(event) => setSearchValue(event.target.value)}
            />
          </label>
        )}
        <div className="form-actions">
          <button type="button" className="button primary" disabled={busy} onClick={saveSearch}>
            {t("agents.search.save")}
          </button>
        </div>
      </section>

      <SqlConnections
        connections={view.sqlConnections}
        busy={busy}
        onSave={(next, message) => save({ sqlConnections: next }, message, "agents.configFailed")}
      />

      <McpServers />

      <section className="card" aria-labelledby="agent-limits-title">
        <h2 id="agent-limits-title">{t("agents.limits.title")}</h2>
        <label className="field">
          <span>{t("agents.limits.maxSteps")}</span>
          <input
            id="agent-max-steps"
            type="number"
            min={1}
            max={50}
            value={limits.maxSteps}
            onChange={(event) => setLimits({ ...limits, maxSteps: event.target.value })}
          />
        </label>
        <label className="field">
          <span>{t("agents.limits.timeout")}</span>
          <input
            id="agent-timeout"
            type="number"
            min={10}
            max={3600}
            value={limits.timeoutSeconds}
            onChange={(event) => setLimits({ ...limits, timeoutSeconds: event.target.value })}
          />
        </label>
        <div className="form-actions">
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() =>
              save(
                { maxSteps: Number(limits.maxSteps), timeoutSeconds: Number(limits.timeoutSeconds) },
                t("agents.limits.saved"),
              )}
          >
            {t("agents.limits.save")}
          </button>
        </div>
      </section>
    </div>
  );
}

/** /settings/agents: the agent's skills with their switches and configuration, web search, and the limits. */
export default function Agents() {
  return (
    <SettingsPage page="agents">
      {() => <AgentSettingsForm />}
    </SettingsPage>
  );
}
