import type { Guard } from "../../shared/routes.ts";
import { paths } from "../../shared/routes.ts";
import { onUnauthorized } from "./api.ts";
import { type AuthDecision, clearSession, guardAllows, pageAuth } from "./auth.ts";
import { t } from "./i18n.ts";

const GUARDS: readonly string[] = ["public", "any", "adminOrManager", "admin"] satisfies Guard[];

/** The guard level the server wrote on <html data-guard>; an unknown or missing one counts as public. */
export function pageGuard(): Guard {
  const guard = document.documentElement.dataset.guard ?? "public";
  return (GUARDS.includes(guard) ? guard : "public") as Guard;
}

/** What the page does after its guard: hydrate (with a problem to report, when the check failed) or nothing. */
export type GuardOutcome = { proceed: true; problem: string | null } | { proceed: false };

function leave(path: string): GuardOutcome {
  globalThis.location.replace(path);
  return { proceed: false };
}

function sessionEnded() {
  clearSession();
  globalThis.location.replace(paths.login());
}

/**
 * Runs the auth check of a guarded page. auth.css hides the server-rendered page and shows a spinner
 * until `<html data-auth="ok">`; a visitor who may not stay is sent to the login, onboarding or home. When the
 * server cannot be asked, the page shows anyway with the problem, rather than a spinner forever. `decide` is the
 * page's auth check (tests pass their own).
 */
export async function guardPage(
  guard: Guard,
  decide: () => Promise<AuthDecision> = pageAuth,
): Promise<GuardOutcome> {
  const root = document.documentElement;
  if (guard === "public") return { proceed: true, problem: null };
  const status = document.createElement("p");
  status.className = "visually-hidden auth-status";
  status.setAttribute("role", "status");
  status.textContent = t("guard.checking");
  document.body.append(status);
  let outcome: GuardOutcome;
  try {
    const decision = await decide();
    if (decision.state === "unauthenticated") return leave(paths.login());
    if (decision.state === "needsOnboarding") return leave(paths.onboarding());
    if (!guardAllows(guard, decision.multiUser, decision.user)) return leave(paths.home());
    // Menu entries marked data-requires hide by this role before the page shows (app.css).
    root.dataset.role = decision.multiUser ? decision.user?.role ?? "default" : "owner";
    onUnauthorized(sessionEnded);
    outcome = { proceed: true, problem: null };
  } catch (error) {
    outcome = { proceed: true, problem: t("guard.checkFailed", { message: (error as Error).message }) };
  }
  status.remove();
  root.dataset.auth = "ok";
  return outcome;
}
