import { and, eq, gt, isNull } from "drizzle-orm";
import type * as z from "zod";
import {
  passwordResetTokens,
  recoveryCodes,
  temporaryAuthTokens,
  users,
  workspaceChats,
  workspaceThreads,
} from "../../db/schema.ts";
import {
  AUTH_MESSAGES,
  type EnableMultiUserInput,
  type InstancePasswordInput,
  type LoginAnswer,
  type LoginInput,
  Password,
  type RecoverAccountInput,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_NEEDED,
  type ResetPasswordInput,
  Username,
} from "../../shared/api/auth.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { LABELS } from "../settings/service.ts";
import { findUserById, findUserByUsername } from "../users/repo.ts";
import { signSession } from "./jwt.ts";
import { passwordLoginDisabled } from "../oidc/options.ts";
import { hashSecret, hashToken, randomToken, verifyNothing, verifySecret } from "./passwords.ts";
import { presentUser, type UserRow } from "./present.ts";
import { addressAndUsername, tooManyAttemptsMessage } from "./rate_limit.ts";

const RESET_TOKEN_LIFETIME_MS = 10 * 60 * 1000;
const SSO_TOKEN_LIFETIME_MS = 6 * 60 * 1000;

const loginFailure = (code: "unauthenticated" | "forbidden" | "rate_limited", message: string) =>
  new AppError(code, message, { body: { user: null, valid: false, token: null, message } });

export function sessionFor(deps: Deps, user: UserRow): Promise<string> {
  return signSession(deps.keys.jwt, { sub: String(user.id), ver: user.tokenVersion });
}

export function instanceSession(deps: Deps): Promise<string> {
  return signSession(deps.keys.jwt, { sub: "instance", ver: deps.settings.instanceTokenVersion });
}

/** Parses a field with its shared schema; the first problem is a 400 in `{success:false, error}` form. */
export function checked<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  return fail("invalid_input", result.error.issues[0]?.message ?? "Invalid value");
}

/** Seconds to wait before the next attempt: the longest wait of the windows, each checked with its key. */
/** `POST /api/request-token` in multi-user mode (docs/api-compat.md#login-and-sessions). */
export async function loginWithAccount(
  deps: Deps,
  input: z.output<typeof LoginInput>,
  address: string,
): Promise<LoginAnswer> {
  if ((deps.config.simpleSso.enabled && deps.config.simpleSso.noLogin) || passwordLoginDisabled(deps)) {
    throw loginFailure("forbidden", AUTH_MESSAGES.credentialsDisabled);
  }
  const { username } = input;
  const password = input.password ?? "";
  const guesser = addressAndUsername(address, username);
  const perAddress = ["loginPerAddress", address] as const;
  const failures = ["loginFailuresPerAddressAndUsername", guesser] as const;
  // A failure is counted before the password is checked and forgiven on success: guesses sent at once would
  // otherwise all pass the check while the first ones are still hashing. (Without a username or password
  // nothing is guessed: only the address's attempt counts.)
  const wait = await deps.limits.take(
    [perAddress, failures],
    username && password ? [perAddress, failures] : [perAddress],
  );
  if (wait > 0) throw loginFailure("rate_limited", tooManyAttemptsMessage(wait));
  if (!username || !password) throw loginFailure("unauthenticated", AUTH_MESSAGES.invalidCredentials);

  // An unknown username and a wrong password answer alike, after the same argon2 work, so neither the
  // message nor the time tells whether the account exists.
  const user = await findUserByUsername(deps, username);
  if (!user) {
    await verifyNothing(password);
    await logEvent(deps, "failed_login_invalid_username", { username, address });
    throw loginFailure("unauthenticated", AUTH_MESSAGES.invalidCredentials);
  }
  if (!(await verifySecret(user.password, password))) {
    await logEvent(deps, "failed_login_invalid_password", { username, address }, user.id);
    throw loginFailure("unauthenticated", AUTH_MESSAGES.invalidCredentials);
  }
  await deps.limits.reset("loginFailuresPerAddressAndUsername", guesser);
  if (user.suspended) {
    await logEvent(deps, "failed_login_account_suspended", { username, address }, user.id);
    throw loginFailure("forbidden", AUTH_MESSAGES.suspended);
  }
  const answer: LoginAnswer = {
    valid: true,
    user: presentUser(user),
    token: await sessionFor(deps, user),
    message: null,
  };
  if (!user.seenRecoveryCodes) answer.recoveryCodes = await issueRecoveryCodes(deps, user);
  await logEvent(deps, "login_event", { username, address }, user.id);
  return answer;
}

/** Four new recovery codes, stored as argon2id hashes; the plain codes leave the server once, here. */
async function issueRecoveryCodes(deps: Deps, user: UserRow): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => crypto.randomUUID());
  const hashes = await Promise.all(codes.map(hashSecret));
  await deps.db.batch([
    deps.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    deps.db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId: user.id, codeHash }))),
    deps.db.update(users).set({ seenRecoveryCodes: true, lastUpdatedAt: new Date() }).where(
      eq(users.id, user.id),
    ),
  ]);
  return codes;
}

/** `POST /api/request-token` in single-user mode: the instance password. */
export async function loginWithInstancePassword(
  deps: Deps,
  password: string | undefined,
  address: string,
): Promise<LoginAnswer> {
  const stored = deps.settings.label(LABELS.instancePasswordHash);
  if (!stored) return { valid: true, user: null, token: await instanceSession(deps), message: null };
  const perAddress = ["loginPerAddress", address] as const;
  const wait = await deps.limits.take([perAddress], [perAddress]);
  if (wait > 0) throw loginFailure("rate_limited", tooManyAttemptsMessage(wait));
  if (password === undefined || !(await verifySecret(stored, password))) {
    await logEvent(deps, "failed_login_invalid_password", { address });
    throw loginFailure("unauthenticated", AUTH_MESSAGES.invalidInstancePassword);
  }
  await logEvent(deps, "login_event", { address });
  return { valid: true, user: null, token: await instanceSession(deps), message: null };
}

/**
 * `POST /api/system/update-password`: sets or removes the single-user instance password. Any change voids
 * the older tokens; the new token is returned so the caller stays signed in.
 */
export async function setInstancePassword(
  deps: Deps,
  input: z.output<typeof InstancePasswordInput>,
): Promise<string | null> {
  if (deps.settings.multiUserMode) {
    fail("forbidden", "This instance is in multi-user mode: each account has its own password.");
  }
  const version = String(deps.settings.instanceTokenVersion + 1);
  if (!input.usePassword) {
    await deps.settings.setLabels({
      [LABELS.instancePasswordHash]: null,
      [LABELS.instanceTokenVersion]: version,
    });
    await logEvent(deps, "instance_password_changed", { enabled: false });
    return null;
  }
  const password = checked(Password, input.newPassword);
  await deps.settings.setLabels({
    [LABELS.instancePasswordHash]: await hashSecret(password),
    [LABELS.instanceTokenVersion]: version,
  });
  await logEvent(deps, "instance_password_changed", { enabled: true });
  return await instanceSession(deps);
}

/**
 * `POST /api/system/enable-multi-user`: creates the first admin, switches the instance to accounts, removes the
 * instance password and gives the single-user chats and threads to the new admin, all in one transaction.
 */
export async function enableMultiUser(
  deps: Deps,
  input: z.output<typeof EnableMultiUserInput>,
): Promise<UserRow> {
  if (deps.settings.multiUserMode) fail("invalid_input", "Multi-user mode is already enabled.");
  const username = checked(Username, input.username);
  const password = checked(Password, input.password);
  if (await findUserByUsername(deps, username)) fail("conflict", AUTH_MESSAGES.usernameTaken);
  const passwordHash = await hashSecret(password);
  const [admin] = await deps.db.insert(users).values({ username, password: passwordHash, role: "admin" })
    .returning();
  try {
    await deps.db.batch([
      deps.db.update(workspaceChats).set({ userId: admin.id }).where(isNull(workspaceChats.userId)),
      deps.db.update(workspaceThreads).set({ userId: admin.id }).where(isNull(workspaceThreads.userId)),
    ]);
    await deps.settings.setLabels({ [LABELS.multiUserMode]: "true", [LABELS.instancePasswordHash]: null });
  } catch (error) {
    await deps.db.delete(users).where(eq(users.id, admin.id));
    throw error;
  }
  await logEvent(deps, "multi_user_mode_enabled", { username }, admin.id);
  return admin;
}

const recoveryFailure = () =>
  new AppError("invalid_input", AUTH_MESSAGES.invalidRecovery, {
    body: { success: false, error: AUTH_MESSAGES.invalidRecovery, message: AUTH_MESSAGES.invalidRecovery },
  });

/**
 * `POST /api/system/recover-account`: two different recovery codes of the user give a reset token valid for
 * 10 minutes. Every failure reads the same, so the answer does not tell which part was wrong.
 */
export async function recoverAccount(
  deps: Deps,
  input: z.output<typeof RecoverAccountInput>,
  address: string,
): Promise<string> {
  if (!deps.settings.multiUserMode) fail("forbidden", "Account recovery needs multi-user mode.");
  const { username, recoveryCodes: codes } = input;
  const guesser = addressAndUsername(address, username);
  const attempt = [["recoveryPerAddress", address], ["recoveryPerAddressAndUsername", guesser]] as const;
  const wait = await deps.limits.take(attempt, attempt);
  if (wait > 0) {
    const message = tooManyAttemptsMessage(wait);
    throw new AppError("rate_limited", message, { body: { success: false, error: message, message } });
  }
  const user = username ? await findUserByUsername(deps, username) : null;
  if (!user || codes.length < RECOVERY_CODES_NEEDED) {
    await verifyNothing(codes[0] ?? "");
    throw recoveryFailure();
  }
  const stored = await deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
  if (stored.length < RECOVERY_CODE_COUNT) throw recoveryFailure();
  const used = new Set<number>();
  for (const code of codes) {
    let matched = false;
    for (const row of stored) {
      if (used.has(row.id)) continue;
      if (await verifySecret(row.codeHash, code)) {
        used.add(row.id);
        matched = true;
        break;
      }
    }
    if (!matched) throw recoveryFailure();
  }
  const token = randomToken();
  await deps.db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: await hashToken(token),
    expiresAt: new Date(Date.now() + RESET_TOKEN_LIFETIME_MS),
  });
  await deps.limits.reset("recoveryPerAddressAndUsername", guesser);
  await logEvent(deps, "account_recovered", { username, address }, user.id);
  return token;
}

const resetFailure = (message: string) =>
  new AppError("invalid_input", message, { body: { success: false, error: message, message } });

/**
 * `POST /api/system/reset-password`: a valid reset token sets the new password, voids the user's tokens,
 * reset tokens and recovery codes (the next login hands out new codes). The passwords are checked by
 * ResetPasswordInput.
 */
export async function resetPassword(deps: Deps, input: z.output<typeof ResetPasswordInput>): Promise<void> {
  const { newPassword } = input;
  const [row] = await deps.db.select().from(passwordResetTokens).where(and(
    eq(passwordResetTokens.tokenHash, await hashToken(input.token)),
    gt(passwordResetTokens.expiresAt, new Date()),
  ));
  if (!row) throw resetFailure(AUTH_MESSAGES.invalidResetToken);
  const user = await findUserById(deps, row.userId);
  if (!user) throw resetFailure(AUTH_MESSAGES.invalidResetToken);
  const passwordHash = await hashSecret(newPassword);
  await deps.db.batch([
    deps.db.update(users).set({
      password: passwordHash,
      seenRecoveryCodes: false,
      tokenVersion: user.tokenVersion + 1,
      lastUpdatedAt: new Date(),
    }).where(eq(users.id, user.id)),
    deps.db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    deps.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
  ]);
  await logEvent(deps, "password_reset", { username: user.username }, user.id);
}

function ssoAvailable(deps: Deps): boolean {
  return deps.config.simpleSso.enabled && deps.settings.multiUserMode;
}

/** Issues a single-use login token for a user, valid 6 minutes; earlier ones of that user stop working. */
export async function issueSsoToken(
  deps: Deps,
  userId: number,
): Promise<{ token: string; loginPath: string }> {
  if (!ssoAvailable(deps)) {
    fail("forbidden", "Simple SSO is not enabled on this instance: start Lectern with SIMPLE_SSO_ENABLED=1.");
  }
  const user = await findUserById(deps, userId) ?? fail("not_found", "User not found");
  const { token } = await issueLoginToken(deps, user.id);
  return { token, loginPath: `/sso/simple?token=${encodeURIComponent(token)}` };
}

/**
 * A single-use login token (simple SSO's link, the end of an OpenID Connect login), valid 6 minutes; stored
 * hashed, and earlier ones of that user stop working.
 */
export async function issueLoginToken(deps: Deps, userId: number): Promise<{ token: string }> {
  const token = `lectern-tat-${randomToken(24)}`;
  await deps.db.batch([
    deps.db.delete(temporaryAuthTokens).where(eq(temporaryAuthTokens.userId, userId)),
    deps.db.insert(temporaryAuthTokens).values({
      userId,
      tokenHash: await hashToken(token),
      expiresAt: new Date(Date.now() + SSO_TOKEN_LIFETIME_MS),
    }),
  ]);
  return { token };
}

/** Redeems a single-use SSO token: found once, then gone, whatever the outcome. */
export async function redeemSsoToken(deps: Deps, token: string): Promise<LoginAnswer> {
  if (!ssoAvailable(deps)) {
    throw new AppError("forbidden", "Simple SSO is not enabled on this instance.");
  }
  return await redeemLoginToken(deps, token, "sso_login");
}

/** Redeems a single-use login token (simple SSO or OpenID Connect): found once, then gone, whatever the outcome. */
export async function redeemLoginToken(
  deps: Deps,
  token: string,
  event: "sso_login" | "oidc_login",
): Promise<LoginAnswer> {
  const invalid = (reason: string) => {
    const message = `[001] An error occurred while validating the token: ${reason}`;
    return new AppError("unauthenticated", message, {
      body: { user: null, valid: false, token: null, message },
    });
  };
  if (!token) throw invalid("No token provided.");
  const tokenHash = await hashToken(token);
  const [row] = await deps.db.delete(temporaryAuthTokens).where(eq(temporaryAuthTokens.tokenHash, tokenHash))
    .returning();
  if (!row) throw invalid("Invalid token.");
  if (row.expiresAt.getTime() < Date.now()) throw invalid("The token has expired.");
  const user = await findUserById(deps, row.userId);
  if (!user) throw invalid("The user does not exist.");
  if (user.suspended) throw invalid("User is suspended.");
  // An OIDC login is logged when the provider's answer is accepted (server/oidc/service.ts).
  if (event === "sso_login") await logEvent(deps, "sso_login", { username: user.username }, user.id);
  return { valid: true, user: presentUser(user), token: await sessionFor(deps, user), message: null };
}
