import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MIN_SEARCH_CHARS } from "../../../shared/limits.ts";
import { paths } from "../../../shared/routes.ts";
import { useDebounced } from "../settings/use_debounced.ts";
import { searchNames } from "./api.ts";
import { moveFocus } from "./keys.ts";
import { type Found, searchView } from "./status.ts";

/**
 * The sidebar's search over workspace and thread names (`POST /workspace/search`): results show under the field
 * as links once the typed term has settled. Arrow keys move between the field and the results, Enter follows
 * a result (the first one from the field), Escape clears.
 */
export function SidebarSearch() {
  const { t } = useTranslation();
  const [term, setTerm] = useState("");
  const typed = term.trim();
  const settled = useDebounced(typed);
  const [found, setFound] = useState<Found | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (settled.length < MIN_SEARCH_CHARS) return;
    const controller = new AbortController();
    searchNames(settled, controller.signal).then(
      (answer) => setFound({ term: settled, answer }),
      (caught: Error) => {
        if (caught.name !== "AbortError") setFound({ term: settled, error: caught.message });
      },
    );
    return () => controller.abort();
  }, [settled]);

  const { active, current, shown, status: state } = searchView(typed, found);

  const links = () => [...(results.current?.querySelectorAll<HTMLAnchorElement>("a[href]") ?? [])];

  function clear() {
    setTerm("");
    setFound(null);
    field.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape") {
      if (term === "") return;
      event.preventDefault();
      clear();
      return;
    }
    const list = links();
    const from = event.target === field.current ? -1 : list.indexOf(event.target as HTMLAnchorElement);
    if (event.key === "Enter" && from === -1) {
      // Only a result of the term as typed: a stale one would lead somewhere the person did not ask for.
      if (current && list.length > 0) {
        event.preventDefault();
        list[0].click();
      }
      return;
    }
    const to = active ? moveFocus(event.key, from, list.length) : null;
    if (to === null) return;
    event.preventDefault();
    (to === -1 ? field.current : list[to])?.focus();
  }

  let status: string;
  if (state.kind === "tooShort") status = t("sidebar.search.tooShort", { count: MIN_SEARCH_CHARS });
  else if (state.kind === "failed") status = t("sidebar.search.failed", { error: state.error });
  else if (state.kind === "searching") status = t("sidebar.search.searching");
  else if (state.kind === "noResults") status = t("sidebar.search.noResults");
  else status = t("sidebar.search.found", { count: state.count });

  return (
    <div className="sidebar-search" role="search" onKeyDown={onKeyDown}>
      <label className="visually-hidden" htmlFor="sidebar-search-field">{t("sidebar.search.label")}</label>
      <input
        ref={field}
        id="sidebar-search-field"
        className="input sidebar-search-field"
        type="search"
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        placeholder={t("sidebar.search.placeholder")}
        value={term}
        aria-controls={typed ? "sidebar-search-results" : undefined}
        aria-describedby={typed ? "sidebar-search-status" : undefined}
        onChange={(event) => setTerm(event.target.value)}
      />
      {typed && (
        <div
          ref={results}
          id="sidebar-search-results"
          className="sidebar-search-results"
          role="region"
          aria-label={t("sidebar.search.results")}
          aria-busy={active && !current}
        >
          <p
            id="sidebar-search-status"
            role="status"
            className={`sidebar-search-status${current && "error" in current ? " form-error" : " muted"}`}
          >
            {status}
          </p>
          {active && shown && shown.workspaces.length > 0 && (
            <>
              <h3 id="sidebar-search-workspaces" className="sidebar-search-heading">
                {t("sidebar.search.workspaces")}
              </h3>
              <ul className="sidebar-search-list" aria-labelledby="sidebar-search-workspaces">
                {shown.workspaces.map((workspace) => (
                  <li key={workspace.slug}>
                    <a
                      className="sidebar-search-link"
                      href={paths.workspace(workspace.slug)}
                      title={workspace.name}
                    >
                      <span className="sidebar-search-name">{workspace.name}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {active && shown && shown.threads.length > 0 && (
            <>
              <h3 id="sidebar-search-threads" className="sidebar-search-heading">
                {t("sidebar.search.threads")}
              </h3>
              <ul className="sidebar-search-list" aria-labelledby="sidebar-search-threads">
                {shown.threads.map((thread) => (
                  <li key={`${thread.workspace.slug}/${thread.slug}`}>
                    <a
                      className="sidebar-search-link"
                      href={paths.thread(thread.workspace.slug, thread.slug)}
                      title={t("sidebar.search.threadTitle", {
                        name: thread.name,
                        workspace: thread.workspace.name,
                      })}
                    >
                      <span className="sidebar-search-name">{thread.name}</span>{" "}
                      <span className="sidebar-search-where">
                        {t("sidebar.search.inWorkspace", { workspace: thread.workspace.name })}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
