/** The flag that the survey was sent from this browser; the server keeps the answers. */
export const SURVEY_KEYS = {
  completed: "lectern_questionnaire_completed",
} as const;

export const USE_CASES = ["job", "personal", "other"] as const;
export type UseCase = (typeof USE_CASES)[number];

export type SurveyValues = { email: string; useCase: UseCase | ""; comment: string };

/** Whether this browser sent the survey before; blocked storage reads as not sent. */
export function readCompleted(store?: Storage | null): boolean {
  try {
    return (store === undefined ? globalThis.localStorage : store)?.getItem(SURVEY_KEYS.completed) === "true";
  } catch {
    return false;
  }
}

/** Whether anything of the survey was filled in; an untouched survey moves on without sending. */
export function surveyUsed(values: SurveyValues): boolean {
  return values.email.trim() !== "" || values.useCase !== "" || values.comment.trim() !== "";
}

/** The body of `POST /api/onboarding/survey`: the email, and the use case and comment when given. */
export function surveyBody(values: SurveyValues) {
  return {
    email: values.email.trim(),
    ...(values.useCase ? { useCase: values.useCase } : {}),
    ...(values.comment.trim() ? { comment: values.comment.trim() } : {}),
  };
}
