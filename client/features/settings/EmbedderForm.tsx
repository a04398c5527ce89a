import { useTranslation } from "react-i18next";
import { EMBEDDERS, isSelectableEmbedder } from "../../../shared/providers/embedder_catalog.ts";
import { ProviderChoiceForm } from "./ProviderChoiceForm.tsx";
import { NativeModels } from "./NativeModels.tsx";
import type { SetupResults } from "./setup.ts";

const SELECTABLE_EMBEDDERS = EMBEDDERS.filter(isSelectableEmbedder);

type Props = {
  setup: SetupResults;
  formId: string;
  showActions: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/** The embedding engine choice: the built-in engine with its models, or a hosted or local service. */
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
      choiceNotice={(choice) => choice.id === "native" ? <NativeModels /> : null}
      footer={<p className="field-hint">{t("embedder.changeWarning")}</p>}
      onSaved={onSaved}
      onBusyChange={onBusyChange}
    />
  );
}
