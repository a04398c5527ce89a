import * as z from "zod";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import { LABELS } from "../settings/service.ts";

export const SurveyInput = z.object({
  email: z.string().trim().email("The email address is not valid").max(320),
  useCase: z.enum(["job", "personal", "other"]).optional(),
  comment: z.string().trim().max(5000).optional(),
});

/**
 * Keeps the onboarding survey in the settings table. It leaves the machine only when the operator configured
 * a collector (SURVEY_COLLECTOR_URL); most installs cannot reach the reference's collector, and should not.
 */
export async function keepSurvey(deps: Deps, input: z.output<typeof SurveyInput>): Promise<boolean> {
  await deps.settings.setLabels({
    [LABELS.onboardingSurvey]: JSON.stringify({ ...input, submittedAt: new Date().toISOString() }),
  });
  const collector = deps.config.surveyCollectorUrl;
  if (!collector) return false;
  try {
    const response = await fetch(collector, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...input, source: "lectern-onboarding" }),
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch (error) {
    deps.log.warn("The survey collector did not answer", { error: messageOf(error) });
    return false;
  }
}
