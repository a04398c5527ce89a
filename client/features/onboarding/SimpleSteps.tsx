import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { EmbedderForm } from "../settings/EmbedderForm.tsx";
import { LlmForm } from "../settings/LlmForm.tsx";
import { PrivacySummary } from "../settings/PrivacySummary.tsx";
import { type SetupResults, useSetup } from "../settings/setup.ts";
import { VectorDbForm } from "../settings/VectorDbForm.tsx";
import { goToStep, STEP_FORM_ID } from "./navigation.ts";
import { OnboardingShell } from "./OnboardingShell.tsx";

/** Step 1: 'Welcome to', the product's name as its logo, and 'Get started'. */
export function HomeStep({ appName }: { appName: string }) {
  const { t } = useTranslation();
  return (
    <OnboardingShell forward="hidden">
      <div className="onboarding-welcome">
        <h1 className="onboarding-welcome-heading">
          <span className="onboarding-welcome-text">{t("onboarding.home.welcome")}</span>
          <span className="onboarding-logo">{appName}</span>
        </h1>
        <a className="button primary onboarding-start" href="/onboarding/llm-preference">
          {t("onboarding.home.getStarted")}
        </a>
      </div>
    </OnboardingShell>
  );
}

type SetupState = ReturnType<typeof useSetup>;

/** Shows the step's content once the instance's settings have loaded. */
function WithSetup({ state, children }: { state: SetupState; children: (setup: SetupResults) => ReactNode }) {
  const { t } = useTranslation();
  const { setup, error } = state;
  if (error) return <p className="form-error" role="alert">{t("settings.loadFailed", { error })}</p>;
  if (!setup) return <LoadingBlock label={t("common.loading")} />;
  return <>{children(setup)}</>;
}

/** Step 2: the language model; saving also sets the built-in embedder and LanceDB. */
export function LlmStep() {
  const { t } = useTranslation();
  const state = useSetup();
  const [busy, setBusy] = useState(false);
  return (
    <OnboardingShell
      title={t("onboarding.llm.title")}
      description={t("onboarding.llm.description")}
      back="home"
      forward={{ enabled: state.setup !== null, busy }}
    >
      <WithSetup state={state}>
        {(setup) => (
          <LlmForm
            setup={setup}
            formId={STEP_FORM_ID}
            onboarding
            onBusyChange={setBusy}
            onSaved={() => goToStep("user-setup")}
          />
        )}
      </WithSetup>
    </OnboardingShell>
  );
}

/** Step 4: a read-only summary of where the data goes. */
export function DataHandlingStep() {
  const { t } = useTranslation();
  const state = useSetup();
  const next = (event: FormEvent) => {
    event.preventDefault();
    goToStep("survey");
  };
  return (
    <OnboardingShell
      title={t("onboarding.dataHandling.title")}
      description={t("onboarding.dataHandling.description")}
      back="user-setup"
      forward={{ enabled: true }}
    >
      <form id={STEP_FORM_ID} className="form" onSubmit={next}>
        <WithSetup state={state}>{(setup) => <PrivacySummary setup={setup} />}</WithSetup>
        <p className="muted center">{t("onboarding.dataHandling.reconfigure")}</p>
      </form>
    </OnboardingShell>
  );
}

/** The legacy sub-routes embedding-preference and vector-database: the settings form inside the wizard. */
export function LegacyStep({ step }: { step: "embedding-preference" | "vector-database" }) {
  const { t } = useTranslation();
  const state = useSetup();
  const [busy, setBusy] = useState(false);
  const props = {
    formId: STEP_FORM_ID,
    showActions: false,
    onBusyChange: setBusy,
    onSaved: () => goToStep("data-handling"),
  };
  return (
    <OnboardingShell
      title={t(`settings.pages.${step}.title`)}
      description={t(`settings.pages.${step}.description`)}
      back="llm-preference"
      forward={{ enabled: state.setup !== null, busy }}
    >
      <WithSetup state={state}>
        {(setup) =>
          step === "embedding-preference"
            ? <EmbedderForm setup={setup} {...props} />
            : <VectorDbForm setup={setup} {...props} />}
      </WithSetup>
    </OnboardingShell>
  );
}
