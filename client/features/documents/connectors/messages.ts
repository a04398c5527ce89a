import type { TFunction } from "i18next";
import type { ConnectorImport } from "../../../../shared/api/connectors.ts";

/**
 * The toast of an import that ended well: the reference's text of its connector, from what the server keeps with
 * the import (its source, counts, folder and `details`), so a page reloaded while it ran shows the same toast.
 */
export function importDoneMessage(t: TFunction, ended: ConnectorImport): string {
  const details = ended.details ?? {};
  switch (ended.source) {
    case "youtube":
      return t("connectorForms.youtube.done", {
        title: details.title ?? ended.label,
        author: details.author ?? "",
        destination: ended.folder,
      });
    case "website-depth":
      return t("connectorForms.website.done", { count: ended.done });
    case "confluence":
      return t("connectorForms.confluence.done", {
        spaceKey: details.spaceKey ?? ended.label,
        destination: ended.folder,
      });
    default:
      return t("connectors.progress.collected", {
        count: ended.done,
        label: ended.label,
        folder: ended.folder,
      });
  }
}
