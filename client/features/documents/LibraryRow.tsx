import { useTranslation } from "react-i18next";
import type { LocalFile } from "../../../shared/api/library.ts";
import { formatCount, formatPublished } from "./format.ts";

/** One document of the library: a checkbox to select it, its title, size and date, and whether the workspace holds it. */
export function LibraryRow(
  { file, selected, inWorkspace, onToggle }: {
    file: LocalFile;
    selected: boolean;
    inWorkspace: boolean;
    onToggle: (location: string) => void;
  },
) {
  const { t } = useTranslation();
  const published = formatPublished(file.published);
  return (
    <label className={`doc-row${selected ? " selected" : ""}`} title={file.location}>
      <input type="checkbox" checked={selected} onChange={() => onToggle(file.location)} />
      <span className="doc-row-main">
        <span className="doc-title">{file.title}</span>
        <span className="doc-meta">
          {t("documents.size", {
            words: formatCount(file.wordCount),
            tokens: formatCount(file.token_count_estimate),
          })}
          {published && ` · ${published}`}
        </span>
      </span>
      {inWorkspace && <span className="doc-badge">{t("documents.library.inWorkspace")}</span>}
    </label>
  );
}
