import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

type Suggestion = { heading: string; message: string };

/** The workspace's suggested messages on an empty chat; choosing one sends its message. */
export function SuggestedMessages({ slug, onPick }: { slug: string; onPick: (message: string) => void }) {
  const { t } = useTranslation();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    api(`/workspace/${encodeURIComponent(slug)}/suggested-messages`, {
      schema: lazySchema((s) => s.workspaces.SuggestedMessagesAnswer),
      signal: abort.signal,
    })
      .then((answer) => setSuggestions(answer.suggestedMessages))
      .catch(() => {
        if (!abort.signal.aborted) toast.error(t("chat.errors.suggestions"));
      });
    return () => abort.abort();
  }, [slug]);
  if (suggestions.length === 0) return null;
  return (
    <ul className="suggestions" aria-label={t("chat.suggestions.label")}>
      {suggestions.map((suggestion, index) => (
        <li key={index}>
          <button type="button" className="suggestion" onClick={() => onPick(suggestion.message)}>
            {suggestion.heading && <strong className="suggestion-heading">{suggestion.heading}</strong>}
            <span className="suggestion-message">{suggestion.message}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
