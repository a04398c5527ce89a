import { and, eq, inArray } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import * as oidc from "openid-client";
import { oidcIdentities, users, workspaces, workspaceUsers } from "../../db/schema.ts";
import { Username } from "../../shared/api/auth.ts";
import { type OidcRole, roleOfGroups } from "../../shared/oidc.ts";
import { type OidcOptions, oidcOptions } from "./options.ts";
import type { Deps } from "../deps.ts";
import { logEvent } from "../events/log.ts";
import { guardedFetch } from "../http/url_guard.ts";
import { hashSecret, randomToken } from "../auth/passwords.ts";
import { issueLoginToken } from "../auth/service.ts";
import type { UserRow } from "../auth/present.ts";
import { otherActiveAdmins } from "../users/repo.ts";

/** What a refused login tells the browser: a code the login page turns into a sentence (never free text). */
export type OidcFailure =
  | "unavailable"
  | "provider"
  | "state"
  | "token"
  | "username"
  | "exists"
  | "no_account"
  | "suspended";

/** A refused OIDC login: `code` goes to the browser, `reason` (a sentence) to the event log and the log. */
export class OidcRefusal extends Error {
  constructor(readonly code: OidcFailure, readonly reason: string) {
    super(reason);
  }
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discovered = new WeakMap<object, { key: string; at: number; config: oidc.Configuration }>();

/**
 * The provider's configuration from its discovery document, kept 10 minutes. Every request to the provider
 * goes through the URL guard: the issuer is the admin's, so private addresses (a Keycloak on the LAN) are
 * allowed as for an admin's own model server. An `http:` issuer is the admin's explicit choice.
 */
async function providerConfig(deps: Deps, options: OidcOptions): Promise<oidc.Configuration> {
  const key = JSON.stringify([options.issuer, options.clientId, options.clientSecret]);
  const cached = discovered.get(deps.settings);
  if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const fetchThroughGuard: oidc.CustomFetch = (url, init) =>
    guardedFetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body as BodyInit | undefined,
      signal: init.signal ?? AbortSignal.timeout(10_000),
    }, { allowPrivate: true });
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(
      new URL(options.issuer),
      options.clientId,
      undefined,
      options.clientSecret ? oidc.ClientSecretPost(options.clientSecret) : oidc.None(),
      {
        [oidc.customFetch]: fetchThroughGuard,
        execute: new URL(options.issuer).protocol === "http:" ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      },
    );
  } catch (error) {
    throw new OidcRefusal(
      "provider",
      `Cannot read the identity provider's configuration at ${options.issuer}: ${messageOf(error)}`,
    );
  }
  // The ID token's signature is checked against the provider's keys, not only its claims.
  oidc.enableNonRepudiationChecks(config);
  discovered.set(deps.settings, { key, at: Date.now(), config });
  return config;
}

/** An error's message with its causes' (openid-client wraps the check that failed), as one sentence. */
const messageOf = (error: unknown) => {
  const parts: string[] = [];
  for (let at: unknown = error; at && parts.length < 4; at = at instanceof Error ? at.cause : undefined) {
    parts.push(at instanceof Error ? at.message : String(at));
  }
  const text = parts.filter(Boolean).join(": ") || "unknown error";
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

/** The key that signs the short-lived login cookie: derived from the instance key, never a session key. */
async function loginStateKey(deps: Deps): Promise<Uint8Array> {
  const material = new Uint8Array([...deps.keys.jwt, ...new TextEncoder().encode("lectern-oidc-login")]);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", material));
}

const LOGIN_STATE_AUDIENCE = "lectern-oidc-login";
export const LOGIN_STATE_COOKIE = "lectern_oidc";
export const LOGIN_STATE_SECONDS = 600;

interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  redirectTo: string;
}

/**
 * Starts a login: the provider's authorization URL (code flow with PKCE, state and nonce), and the signed
 * cookie that binds the answer to this browser for 10 minutes.
 */
export async function startOidcLogin(
  deps: Deps,
  origin: string,
  redirectTo: string,
): Promise<{ url: string; cookie: string }> {
  const options = oidcOptions(deps);
  if (!options) throw new OidcRefusal("unavailable", "OpenID Connect login is not enabled on this instance.");
  const config = await providerConfig(deps, options);
  const verifier = oidc.randomPKCECodeVerifier();
  const state: LoginState = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier,
    redirectUri: `${origin}/api/auth/oidc/callback`,
    redirectTo,
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: state.redirectUri,
    scope: options.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: state.state,
    nonce: state.nonce,
  });
  const cookie = await new SignJWT({ ...state }).setProtectedHeader({ alg: "HS256" })
    .setAudience(LOGIN_STATE_AUDIENCE).setIssuedAt().setExpirationTime(`${LOGIN_STATE_SECONDS}s`)
    .sign(await loginStateKey(deps));
  return { url: url.href, cookie };
}

async function readLoginState(deps: Deps, cookie: string | undefined): Promise<LoginState> {
  if (!cookie) {
    throw new OidcRefusal(
      "state",
      "The login answer came without this browser's login cookie (started elsewhere).",
    );
  }
  try {
    const { payload } = await jwtVerify(cookie, await loginStateKey(deps), {
      algorithms: ["HS256"],
      audience: LOGIN_STATE_AUDIENCE,
    });
    return payload as unknown as LoginState;
  } catch {
    throw new OidcRefusal("state", "The login cookie is invalid or older than 10 minutes.");
  }
}

const claimText = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim() : null;

/** A groups claim as a list: an array of names, or one name (some providers send a string). */
function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" && value ? [value] : [];
}

/**
 * Finishes a login from the provider's redirect: checks state, PKCE, the ID token (signature, issuer,
 * audience, expiry, nonce), finds or creates the user, applies the group mappings, and answers the one-time
 * path that signs the browser in. The provider's tokens are dropped here: nothing of them is stored.
 */
export async function finishOidcLogin(
  deps: Deps,
  currentUrl: URL,
  cookie: string | undefined,
  address: string,
): Promise<{ loginPath: string }> {
  const options = oidcOptions(deps);
  if (!options) throw new OidcRefusal("unavailable", "OpenID Connect login is not enabled on this instance.");
  const providerError = currentUrl.searchParams.get("error");
  if (providerError) {
    const description = currentUrl.searchParams.get("error_description");
    throw new OidcRefusal(
      "provider",
      `The identity provider refused the login: ${description || providerError}.`,
    );
  }
  const state = await readLoginState(deps, cookie);
  const config = await providerConfig(deps, options);
  // The provider redirects to the address the login gave it; that is the URL the answer is checked against.
  const answer = new URL(state.redirectUri);
  answer.search = currentUrl.search;
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, answer, {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
    const wanted = [options.usernameClaim, options.groupsClaim].filter(Boolean);
    if (
      wanted.some((claim) => claims[claim] === undefined) && tokens.access_token &&
      config.serverMetadata().userinfo_endpoint
    ) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      claims = { ...info, ...claims };
    }
  } catch (error) {
    // A state that does not match is a login this browser did not start; anything else is the token exchange or
    // the ID token (signature, issuer, audience, expiry, nonce).
    const refusal = /\bstate\b/i.test(messageOf(error)) ? "state" : "token";
    throw new OidcRefusal(refusal, `The identity provider's answer was refused: ${messageOf(error)}`);
  }
  const issuer = String(claims.iss);
  const subject = String(claims.sub);
  const rawUsername = claimText(claims[options.usernameClaim]);
  if (!rawUsername) {
    throw new OidcRefusal("username", `The identity provider sent no "${options.usernameClaim}" claim.`);
  }
  const parsedName = Username.safeParse(rawUsername.toLowerCase());
  if (!parsedName.success) {
    throw new OidcRefusal(
      "username",
      `The identity provider's username "${rawUsername}" cannot be used: ${
        parsedName.error.issues[0]?.message
      }`,
    );
  }
  const username = parsedName.data;
  const groups = options.groupsClaim ? groupsOf(claims[options.groupsClaim]) : [];
  const mappedRole = roleOfGroups(options.roleMapping, groups);

  let user = await linkedUser(deps, issuer, subject);
  if (!user) {
    user = await linkOrCreate(deps, options, { issuer, subject, username, role: mappedRole ?? "default" });
  }
  if (user.suspended) throw new OidcRefusal("suspended", `The account "${user.username}" is suspended.`);
  user = await applyRole(deps, user, mappedRole);
  await joinMappedWorkspaces(deps, options, user, groups);
  await logEvent(deps, "oidc_login", { username: user.username, address }, user.id);
  const { token } = await issueLoginToken(deps, user.id);
  const redirect = state.redirectTo && state.redirectTo !== "/"
    ? `&redirectTo=${encodeURIComponent(state.redirectTo)}`
    : "";
  return { loginPath: `/sso/oidc?token=${encodeURIComponent(token)}${redirect}` };
}

async function linkedUser(deps: Deps, issuer: string, subject: string): Promise<UserRow | null> {
  const [row] = await deps.db.select({ user: users }).from(oidcIdentities)
    .innerJoin(users, eq(users.id, oidcIdentities.userId))
    .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
  return row?.user ?? null;
}

/** A first login: links an existing account of that name (when allowed) or creates one (when allowed). */
async function linkOrCreate(
  deps: Deps,
  options: OidcOptions,
  identity: { issuer: string; subject: string; username: string; role: OidcRole },
): Promise<UserRow> {
  const [existing] = await deps.db.select().from(users).where(eq(users.username, identity.username));
  if (existing) {
    if (!options.linkExistingUsers) {
      throw new OidcRefusal(
        "exists",
        `An account named "${identity.username}" already exists and is not linked to this identity provider.`,
      );
    }
    await deps.db.insert(oidcIdentities).values({
      userId: existing.id,
      issuer: identity.issuer,
      subject: identity.subject,
    });
    return existing;
  }
  if (!options.autoCreateUsers) {
    throw new OidcRefusal(
      "no_account",
      `No account matches "${identity.username}", and accounts are not created on first login.`,
    );
  }
  // The account has no usable password: a random one nobody knows, hashed like any other.
  const password = await hashSecret(randomToken(32));
  const created = await deps.db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values({
      username: identity.username,
      password,
      role: identity.role,
    })
      .returning();
    await tx.insert(oidcIdentities).values({
      userId: row.id,
      issuer: identity.issuer,
      subject: identity.subject,
    });
    return row;
  });
  await logEvent(deps, "oidc_user_created", { username: created.username, role: created.role }, created.id);
  return created;
}

/**
 * The mapping's role, when it names one of the user's groups: applied at each login, so a change in the
 * provider reaches Lectern. A user whose groups the mapping does not name keeps their role, and the last
 * admin is never demoted (the instance would have none).
 */
async function applyRole(deps: Deps, user: UserRow, role: OidcRole | null): Promise<UserRow> {
  if (!role || role === user.role) return user;
  if (user.role === "admin" && (await otherActiveAdmins(deps, user.id)) === 0) {
    deps.log.warn("OIDC role mapping would demote the last admin; the role is kept", {
      username: user.username,
    });
    return user;
  }
  const [updated] = await deps.db.update(users).set({
    role,
    tokenVersion: user.tokenVersion + 1,
    lastUpdatedAt: new Date(),
  }).where(eq(users.id, user.id)).returning();
  return updated;
}

/** Adds the user to the workspaces their groups map to (never removes: an admin may have added more). */
async function joinMappedWorkspaces(deps: Deps, options: OidcOptions, user: UserRow, groups: string[]) {
  const slugs = [...new Set(groups.flatMap((group) => options.workspaceMapping.get(group) ?? []))];
  if (slugs.length === 0) return;
  const found = await deps.db.select({ id: workspaces.id }).from(workspaces).where(
    inArray(workspaces.slug, slugs),
  );
  if (found.length === 0) return;
  await deps.db.insert(workspaceUsers).values(
    found.map((workspace) => ({ userId: user.id, workspaceId: workspace.id })),
  )
    .onConflictDoNothing();
}
