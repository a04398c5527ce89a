import { CreateWorkspaceStep } from "../features/onboarding/CreateWorkspaceStep.tsx";
import { DataHandlingStep, HomeStep, LegacyStep, LlmStep } from "../features/onboarding/SimpleSteps.tsx";
import { SurveyStep } from "../features/onboarding/SurveyStep.tsx";
import { UserSetupStep } from "../features/onboarding/UserSetupStep.tsx";

type Props = { step: string; appName: string };

/** The setup wizard (spec 01 §2.6): one server-rendered page per step. */
export default function Onboarding({ step, appName }: Props) {
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
