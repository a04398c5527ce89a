import { useTranslation } from "react-i18next";
import { RERANKER_CHOICES, RERANKER_SETTINGS } from "../../../shared/providers/reranker_catalog.ts";
import { ProviderChoiceForm } from "./ProviderChoiceForm.tsx";
import type { SetupResults } from "./setup.ts";

/**
 * The reranker of the workspaces' "accuracy optimized" search (shared/providers/reranker_catalog.ts): its own
 * card on the vector database screen, where that search preference's results are made.
 */
export function RerankerForm({ setup }: { setup: SetupResults }) {
  const { t } = useTranslation();
  const saved = setup[RERANKER_SETTINGS.provider];
  return (
    <section className="card settings-card" aria-labelledby="reranker-title" data-testid="reranker-settings">
      <h2 id="reranker-title">{t("reranker.title")}</h2>
      <p className="muted">{t("reranker.description")}</p>
      <ProviderChoiceForm
        setup={setup}
        formId="reranker-form"
        choices={RERANKER_CHOICES}
        choiceKey={RERANKER_SETTINGS.provider}
        savedChoice={typeof saved === "string" ? saved : "native"}
        namespace="reranker"
        showActions
      />
    </section>
  );
}
