import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectorImport } from "../../../../../shared/api/connectors.ts";
import { toast } from "../../../../lib/toast.ts";
import { fetchBranches, startImport } from "../api.ts";

export interface ConnectorFormProps {
  /**
   * Called with the import the form started; the progress view takes it from there (and shows the connector's
   * own toast when it ends well, from the import's source and details).
   */
  onStarted: (started: ConnectorImport) => void;
}

/** Ignore paths as typed: one per line or comma-separated. */
export function splitIgnores(value: string): string[] {
  return value.split(/[\n,]/).map((entry) => entry.trim()).filter(Boolean);
}

/** The GitHub and GitLab form (spec 02 §3's repository payload): URL, token, branch, ignores, issues, wiki. */
export function RepoForm({ host, onStarted }: ConnectorFormProps & { host: "github" | "gitlab" }) {
  const { t } = useTranslation();
  const [repo, setRepo] = useState("");
  const [accessToken, setAccessToken] = useState("");
  const [lookup, setLookup] = useState<{ repo: string; accessToken: string } | null>(null);
  const [branches, setBranches] = useState<string[] | null>(null);
  const [loadingBranches, setLoadingBranches] = useState(false);
  const [branch, setBranch] = useState("");
  const [ignores, setIgnores] = useState("");
  const [fetchIssues, setFetchIssues] = useState(false);
  const [fetchWikis, setFetchWikis] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!lookup?.repo) {
      setBranches(null);
      return;
    }
    let current = true;
    setLoadingBranches(true);
    fetchBranches(host, { repo: lookup.repo, accessToken: lookup.accessToken || undefined })
      .then((found) => {
        if (!current) return;
        setBranches(found);
        setBranch(found[0] ?? "");
      })
      .catch((error: Error) => {
        if (!current) return;
        setBranches([]);
        setBranch("");
        // The reference's branch lookup raises an error toast (spec 02 §8).
        toast.error(error.message);
      })
      .finally(() => current && setLoadingBranches(false));
    return () => {
      current = false;
    };
  }, [host, lookup]);

  const lookUp = () => {
    const next = { repo: repo.trim(), accessToken: accessToken.trim() };
    if (next.repo !== lookup?.repo || next.accessToken !== lookup?.accessToken) setLookup(next);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    toast.info(t("connectors.repo.fetching"));
    try {
      const started = await startImport(`/ext/${host}/repo`, {
        repo: repo.trim(),
        accessToken: accessToken.trim() || undefined,
        branch: branch || undefined,
        ignorePaths: splitIgnores(ignores),
        fetchIssues,
        ...(host === "gitlab" ? { fetchWikis } : {}),
      });
      setAccessToken("");
      onStarted(started);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const id = (name: string) => `${host}-${name}`;
  return (
    <form className="connector-form" onSubmit={submit}>
      <label className="field" htmlFor={id("repo")}>
        <span className="field-label">{t(`connectors.${host}.url`)}</span>
        <span className="muted small">{t(`connectors.${host}.urlHint`)}</span>
        <input
          id={id("repo")}
          className="input"
          type="url"
          required
          value={repo}
          placeholder={t(`connectors.${host}.urlPlaceholder`)}
          onChange={(event) => setRepo(event.target.value)}
          onBlur={lookUp}
        />
      </label>
      <label className="field" htmlFor={id("token")}>
        <span className="field-label">{t(`connectors.${host}.token`)}</span>
        <span className="muted small">{t(`connectors.${host}.tokenHint`)}</span>
        <input
          id={id("token")}
          className="input"
          type="password"
          autoComplete="off"
          value={accessToken}
          onChange={(event) => setAccessToken(event.target.value)}
          onBlur={lookUp}
        />
      </label>
      <label className="field" htmlFor={id("branch")}>
        <span className="field-label">{t("connectors.repo.branch")}</span>
        <span className="muted small">{t("connectors.repo.branchHint")}</span>
        <select
          id={id("branch")}
          className="input"
          value={branch}
          disabled={loadingBranches || !branches?.length}
          onChange={(event) => setBranch(event.target.value)}
        >
          {loadingBranches && <option value="">{t("connectors.repo.branchesLoading")}</option>}
          {!loadingBranches && !branches?.length && (
            <option value="">{t("connectors.repo.branchDefault")}</option>
          )}
          {!loadingBranches && branches?.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
      </label>
      <label className="field" htmlFor={id("ignores")}>
        <span className="field-label">{t("connectors.repo.ignores")}</span>
        <span className="muted small">{t("connectors.repo.ignoresHint")}</span>
        <textarea
          id={id("ignores")}
          className="input"
          rows={3}
          value={ignores}
          placeholder="!*.js, images/*, .DS_Store, bin/*"
          onChange={(event) => setIgnores(event.target.value)}
        />
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={fetchIssues}
          onChange={(event) => setFetchIssues(event.target.checked)}
        />
        {t("connectors.repo.fetchIssues")}
      </label>
      {host === "gitlab" && (
        <label className="check">
          <input
            type="checkbox"
            checked={fetchWikis}
            onChange={(event) => setFetchWikis(event.target.checked)}
          />
          {t("connectors.repo.fetchWikis")}
        </label>
      )}
      <button type="submit" className="button" disabled={busy || !repo.trim()}>
        {busy ? t("connectors.repo.collecting") : t("connectors.submit")}
      </button>
      <p className="muted small">{t("connectors.repo.taskExplained")}</p>
    </form>
  );
}
