import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { clearSession, storeSession, validLogin } from "../auth/session.ts";
import { usernameProblem } from "../auth/validation.ts";
import { RecoveryCodesModal } from "../auth/RecoveryCodesModal.tsx";
import { ChoiceGroup } from "./ChoiceGroup.tsx";
import { goToStep, STEP_FORM_ID, useDebounced } from "./navigation.ts";
import { OnboardingShell } from "./OnboardingShell.tsx";
import { PasswordSetup, TeamSetup } from "./UserSetupFields.tsx";
import {
  failureOf,
  forwardEnabled,
  type Mode,
  submitAction,
  TEAM_USERNAME_MIN,
  type UsePassword,
} from "./user_setup.ts";

async function requestToken(credentials: { username?: string; password: string }, fallback: string) {
  return validLogin(await api("/request-token", { json: credentials }), fallback);
}

/** Step 3: 'Just me' (optionally with an instance password) or 'My team' (the first admin account). */
export function UserSetupStep() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode | null>(null);
  const [usePassword, setUsePassword] = useState<UsePassword | null>(null);
  const [password, setPassword] = useState("");
  const [username, setUsername] = useState("");
  const [adminPassword, setAdminPassword] = useState("");
  const [busy, setBusy] = useState(false);
  /** The first admin's recovery codes: the session is stored once they were saved. */
  const [codes, setCodes] = useState<{ list: string[]; finish: () => void } | null>(null);
  const settledPassword = useDebounced(password);
  const settledUsername = useDebounced(username);
  const settledAdminPassword = useDebounced(adminPassword);

  const problem = usernameProblem(settledUsername, TEAM_USERNAME_MIN);
  const enabled = forwardEnabled({
    mode,
    usePassword,
    password: settledPassword,
    username: settledUsername,
    adminPassword: settledAdminPassword,
  });

  async function setInstancePassword() {
    try {
      const answer = await api("/system/update-password", {
        json: { usePassword: true, newPassword: password },
      });
      const failure = failureOf(answer);
      if (failure !== null) {
        throw new ApiError(failure || t("onboarding.userSetup.unknownError"), 200, answer);
      }
      const session = await requestToken({ password }, t("login.failedFallback"));
      clearSession();
      storeSession({ token: session.token });
      goToStep("data-handling");
    } catch (caught) {
      toast.error(t("onboarding.userSetup.passwordFailed", { error: (caught as Error).message }));
      setBusy(false);
    }
  }

  async function enableMultiUser() {
    try {
      const credentials = { username, password: adminPassword };
      const answer = await api("/system/enable-multi-user", { json: credentials });
      const failure = failureOf(answer);
      if (failure !== null) {
        throw new ApiError(failure || t("onboarding.userSetup.unknownError"), 200, answer);
      }
      const session = await requestToken(credentials, t("login.failedFallback"));
      const finish = () => {
        clearSession();
        storeSession({ token: session.token, user: session.user });
        goToStep("data-handling");
      };
      if (session.recoveryCodes?.length) setCodes({ list: session.recoveryCodes, finish });
      else finish();
    } catch (caught) {
      toast.error(t("onboarding.userSetup.teamFailed", { error: (caught as Error).message }));
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !enabled) return;
    const action = submitAction({ mode, usePassword, password, username, adminPassword });
    if (action === "next") return goToStep("data-handling");
    if (action === "instancePassword") {
      setBusy(true);
      void setInstancePassword();
    } else if (action === "team") {
      setBusy(true);
      void enableMultiUser();
    }
  }

  return (
    <OnboardingShell
      title={t("onboarding.userSetup.title")}
      description={t("onboarding.userSetup.description")}
      back="llm-preference"
      forward={{ enabled, busy }}
    >
      <form id={STEP_FORM_ID} className="form" onSubmit={submit}>
        <ChoiceGroup
          name="user-mode"
          legend={t("onboarding.userSetup.question")}
          value={mode}
          onChange={setMode}
          disabled={busy}
          options={[
            { value: "justMe", label: t("onboarding.userSetup.justMe") },
            { value: "team", label: t("onboarding.userSetup.myTeam") },
          ]}
        />
        {mode === "justMe" && (
          <PasswordSetup
            usePassword={usePassword}
            onUsePasswordChange={setUsePassword}
            password={password}
            onPasswordChange={setPassword}
            disabled={busy}
          />
        )}
        {mode === "team" && (
          <TeamSetup
            username={username}
            usernameProblem={settledUsername && problem ? t(problem, { min: TEAM_USERNAME_MIN }) : null}
            onUsernameChange={setUsername}
            password={adminPassword}
            onPasswordChange={setAdminPassword}
            disabled={busy}
          />
        )}
      </form>
      {codes && <RecoveryCodesModal codes={codes.list} onClose={codes.finish} />}
    </OnboardingShell>
  );
}
