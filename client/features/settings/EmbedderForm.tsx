import { useTranslation } from "react-i18next";
import { EMBEDDERS, isSelectableEmbedder } from "../../../shared/providers/embedder_catalog.ts";
import { ProviderChoiceForm } from "./ProviderChoiceForm.tsx";
import type { SetupResults } from "./setup.ts";

const SELECTABLE_EMBEDDERS = EMBEDDERS.filter(isSelectableEmbedder);

type Props = {
  setup: SetupResults;
  formId: string;
  showActions: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** The embedding engine choice: the built-in embedder or an OpenAI-compatible service with its form. */
export function EmbedderForm({ setup, formId, showActions, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  return (
    <ProviderChoiceForm
      setup={setup}
      formId={formId}
      choices={SELECTABLE_EMBEDDERS}
      choiceKey="EmbeddingEngine"
      savedChoice={setup.EmbeddingEngine ?? "native"}
      namespace="embedder"
      showActions={showActions}
      footer={<p className="field-hint">{t("embedder.changeWarning")}</p>}
      onSaved={onSaved}
      onBusyChange={onBusyChange}
    />
  );
}
