import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { paths } from "../../../shared/routes.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { STEP_FORM_ID } from "./navigation.ts";

type Props = {
  title?: string;
  description?: string;
  /** The step the back arrow leads to; no back arrow without it. */
  back?: string;
  /** The forward arrow submits the step's form; "hidden" for the first step. */
  forward: "hidden" | { enabled: boolean; busy?: boolean };
  children: ReactNode;
};

/** The wizard's frame: a back arrow and a forward arrow around the step. */
export function OnboardingShell({ title, description, back, forward, children }: Props) {
  const { t } = useTranslation();
  return (
    <div className="onboarding">
      {(back || title || forward !== "hidden") && (
        <div className="onboarding-top">
          {back
            ? (
              <a className="onboarding-arrow" href={paths.onboarding(back)} aria-label={t("onboarding.back")}>
                <span aria-hidden="true">←</span>
              </a>
            )
            : <span className="onboarding-arrow-space" aria-hidden="true" />}
          <div className="onboarding-heading">
            {title && <h1>{title}</h1>}
            {description && <p className="muted">{description}</p>}
          </div>
          {forward === "hidden" ? <span className="onboarding-arrow-space" aria-hidden="true" /> : (
            <button
              type="submit"
              form={STEP_FORM_ID}
              className="onboarding-arrow forward"
              disabled={!forward.enabled || forward.busy}
              aria-busy={forward.busy || undefined}
              aria-label={t("onboarding.next")}
              title={t("onboarding.next")}
            >
              {forward.busy ? <Spinner label={t("onboarding.working")} /> : <span aria-hidden="true">→</span>}
            </button>
          )}
        </div>
      )}
      <div className="onboarding-body">{children}</div>
    </div>
  );
}
