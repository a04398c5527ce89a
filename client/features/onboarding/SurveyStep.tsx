import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingBlock } from "../../components/LoadingBlock.tsx";
import { TextField } from "../../components/TextField.tsx";
import { api } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";
import { goToStep, STEP_FORM_ID } from "./navigation.ts";
import { OnboardingShell } from "./OnboardingShell.tsx";
import { readCompleted, SURVEY_KEYS, surveyBody, surveyUsed, USE_CASES, type UseCase } from "./survey.ts";

/** How long a failed survey's toast stays before the wizard moves on. */
const FAILURE_PAUSE_MS = 2000;
const USE_CASE_KEYS: Record<UseCase, string> = {
  job: "onboarding.survey.useCaseJob",
  personal: "onboarding.survey.useCasePersonal",
  other: "onboarding.survey.useCaseOther",
};

/**
 * Step 5, optional: email, use case and a comment, kept by the server (POST /api/onboarding/survey); an empty
 * form or 'Skip Survey' moves on.
 */
export function SurveyStep({ appName }: { appName: string }) {
  const { t } = useTranslation();
  const [completed, setCompleted] = useState<boolean | null>(null);
  const [email, setEmail] = useState("");
  const [useCase, setUseCase] = useState<UseCase | "">("");
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const used = surveyUsed({ email, useCase, comment });

  useEffect(() => setCompleted(readCompleted()), []);

  /** Sends the survey; the thank-you flag is kept once it arrived, and a failure is toasted but not blocking. */
  async function send() {
    const survey = surveyBody({ email, useCase, comment });
    try {
      await api("/onboarding/survey", { json: survey });
      try {
        localStorage.setItem(SURVEY_KEYS.completed, "true");
      } catch {
        // Storage blocked: the survey is sent anyway, only the thank-you will not show next time.
      }
    } catch (error) {
      toast.error(t("onboarding.survey.sendFailed", { error: (error as Error).message }));
      // Long enough to read the toast before the next step's page replaces it.
      await new Promise((resolve) => setTimeout(resolve, FAILURE_PAUSE_MS));
    }
    goToStep("create-workspace");
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (completed || !used) return goToStep("create-workspace");
    setBusy(true);
    void send();
  }

  return (
    <OnboardingShell
      title={t("onboarding.survey.title")}
      description={t("onboarding.survey.description", { appName })}
      back="data-handling"
      forward={{ enabled: completed !== null, busy }}
    >
      <form id={STEP_FORM_ID} className="form" onSubmit={submit}>
        {completed === null && <LoadingBlock label={t("common.loading")} />}
        {completed && (
          <div className="notice success">
            <p>{t("onboarding.survey.thanks")}</p>
            <p className="muted">{t("onboarding.survey.thanksNext")}</p>
          </div>
        )}
        {completed === false && (
          <>
            <TextField
              label={t("onboarding.survey.email")}
              type="email"
              name="email"
              autoComplete="email"
              required={used}
              placeholder={t("onboarding.survey.emailExample")}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <fieldset className="choice-group">
              <legend className="field-label">{t("onboarding.survey.useCase")}</legend>
              <div className="radio-list">
                {USE_CASES.map((value) => (
                  <label key={value} className="radio">
                    <input
                      type="radio"
                      name="useCase"
                      value={value}
                      checked={useCase === value}
                      onChange={() => setUseCase(value)}
                    />
                    <span>{t(USE_CASE_KEYS[value])}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <label className="field">
              <span className="field-label">
                {t("onboarding.survey.comment")}{" "}
                <span className="muted">{t("onboarding.survey.optional")}</span>
              </span>
              <textarea
                className="input"
                name="comment"
                rows={3}
                placeholder={t("onboarding.survey.commentExample")}
                value={comment}
                onChange={(event) => setComment(event.target.value)}
              />
            </label>
            <div className="form-actions">
              <button
                type="button"
                className="button secondary"
                disabled={busy}
                onClick={() => goToStep("create-workspace")}
              >
                {t("onboarding.survey.skip")}
              </button>
            </div>
          </>
        )}
      </form>
    </OnboardingShell>
  );
}
