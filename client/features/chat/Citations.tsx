import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Source } from "../../../shared/api/chat.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { chunkBody, citedPages, groupSources } from "./messages.ts";

/**
 * Citations under an answer: one button per document; it opens the cited chunks with their scores. A follow-up
 * searched as rewritten with the conversation shows what was searched for.
 */
export function Citations({ sources, searchQuery }: { sources: Source[]; searchQuery?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const groups = groupSources(sources);
  if (groups.length === 0 && !searchQuery) return null;
  const shown = groups.find((group) => group.title === open);
  return (
    <div className="citations">
      {searchQuery && (
        <p className="citations-query" data-testid="search-query">
          {t("chat.searchedFor", { query: searchQuery })}
        </p>
      )}
      {groups.length > 0 && <span className="citations-label">{t("chat.citations")}</span>}
      <ul className="citation-list">
        {groups.map((group) => {
          const pages = citedPages(group.chunks);
          return (
            <li key={group.title}>
              <button
                type="button"
                className="citation"
                title={group.title}
                onClick={() => setOpen(group.title)}
              >
                <span className="citation-title">{group.title}</span>
                {pages.length > 0 && (
                  <span className="citation-pages">
                    {t("chat.pages", { count: pages.length, pages: pages.join(", ") })}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      <Dialog open={shown !== undefined} title={shown?.title ?? ""} onClose={() => setOpen(null)}>
        {shown && (
          <>
            <ol className="citation-chunks">
              {shown.chunks.map((chunk, index) => (
                <li key={chunk.id ?? index} className="citation-chunk">
                  <p className="citation-score">
                    {typeof chunk.page === "number" && (
                      <span className="citation-page">{t("chat.page", { page: chunk.page })}</span>
                    )}
                    {typeof chunk.score === "number" &&
                      t("chat.similarity", { percent: Math.round(chunk.score * 100) })}
                  </p>
                  <blockquote>{chunkBody(chunk.text)}</blockquote>
                </li>
              ))}
            </ol>
            <div className="form-actions">
              <button type="button" className="button secondary" onClick={() => setOpen(null)}>
                {t("common.close")}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </div>
  );
}
