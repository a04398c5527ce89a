import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { paths } from "../../shared/routes.ts";
import { LoadingBlock } from "../components/LoadingBlock.tsx";
import { CreateWorkspaceStep } from "../features/onboarding/CreateWorkspaceStep.tsx";
import { DataHandlingStep, HomeStep, LegacyStep, LlmStep } from "../features/onboarding/SimpleSteps.tsx";
import { SurveyStep } from "../features/onboarding/SurveyStep.tsx";
import { UserSetupStep } from "../features/onboarding/UserSetupStep.tsx";
import { api } from "../lib/api.ts";

type Props = { step: string; appName: string };

const OnboardingState = z.looseObject({ onboardingComplete: z.boolean() });

function Step({ step, appName }: Props) {
  switch (step) {
    case "llm-preference":
      return <LlmStep />;
    case "user-setup":
      return <UserSetupStep />;
    case "data-handling":
      return <DataHandlingStep />;
    case "survey":
      return <SurveyStep appName={appName} />;
    case "create-workspace":
      return <CreateWorkspaceStep appName={appName} />;
    case "embedding-preference":
    case "vector-database":
      return <LegacyStep step={step} />;
    default:
      return <HomeStep appName={appName} />;
  }
}

/**
 * The setup wizard: one server-rendered page per step, reachable only until onboarding is
 * complete; afterwards every step sends the visitor home. When the server cannot say, the wizard shows.
 */
export default function Onboarding(props: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api("/onboarding", { schema: OnboardingState, signal: controller.signal }).then(
      (answer) => {
        if (answer.onboardingComplete) globalThis.location.replace(paths.home());
        else setOpen(true);
      },
      () => {
        if (!controller.signal.aborted) setOpen(true);
      },
    );
    return () => controller.abort();
  }, []);
  if (!open) return <LoadingBlock label={t("common.loading")} />;
  return <Step {...props} />;
}
