import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LLM_PROVIDERS } from "../../../shared/providers/llm_catalog.ts";
import { paths } from "../../../shared/routes.ts";
import { ProviderChoiceForm } from "./ProviderChoiceForm.tsx";
import { needsEmbedder } from "./provider_form.ts";
import type { SetupResults } from "./setup.ts";

/** The providers the form offers: every row of the provider table that has a settings form. */
export const selectableLlms = () => LLM_PROVIDERS.filter((provider) => provider.fields.length > 0);

type Props = {
  setup: SetupResults;
  formId: string;
  /** Onboarding saves with the built-in embedder and LanceDB and shows no Save button. */
  onboarding?: boolean;
  onSaved?: () => void;
  onBusyChange?: (busy: boolean) => void;
};

/**
 * The language-model provider choice and the chosen provider's form: a locally hosted
 * provider carries the experimental notice, LM Studio and LocalAI the embedding-service notice.
 */
export function LlmForm({ setup, formId, onboarding = false, onSaved, onBusyChange }: Props) {
  const { t } = useTranslation();
  const choices = useMemo(selectableLlms, []);
  return (
    <ProviderChoiceForm
      setup={setup}
      formId={formId}
      choices={choices}
      choiceKey="LLMProvider"
      savedChoice={setup.LLMProvider}
      namespace="llm"
      showActions={!onboarding}
      searchLabel={t("llm.search")}
      extraSettings={onboarding ? { EmbeddingEngine: "native", VectorDB: "lancedb" } : undefined}
      choiceNotice={(choice) => (
        <>
          {choice.local && <p className="notice warning">{t("llm.experimentalNotice")}</p>}
          {needsEmbedder(choice.id) && (
            <p className="notice">
              {t("llm.needsEmbedder")}
              {!onboarding && (
                <>
                  {" "}
                  <a href={paths.settings("embedding-preference")}>{t("llm.manageEmbedding")}</a>
                </>
              )}
            </p>
          )}
        </>
      )}
      onSaved={onSaved}
      onBusyChange={onBusyChange}
    />
  );
}
