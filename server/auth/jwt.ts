// The two modules used, not the package's index (which loads JWE, JWK and JWKS too: about 45 modules).
import { jwtVerify } from "jose/jwt/verify";
import { SignJWT } from "jose/jwt/sign";

export interface SessionClaims {
  /** The user's id, or "instance" for a single-user password session. */
  sub: string;
  /** The user's (or the instance password's) token version when signed; a newer version voids the token. */
  ver: number;
}

export const SESSION_LIFETIME = "30d";

/** Signs a session token with the instance key (HS256). */
export async function signSession(
  key: Uint8Array,
  claims: SessionClaims,
  expiresIn = SESSION_LIFETIME,
): Promise<string> {
  return await new SignJWT({ ver: claims.ver }).setProtectedHeader({ alg: "HS256" }).setSubject(claims.sub)
    .setIssuedAt().setExpirationTime(expiresIn).sign(key);
}

/** The token's claims, or null when it is malformed, tampered with or expired. */
export async function verifySession(key: Uint8Array, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string") return null;
    return { sub: payload.sub, ver: typeof payload.ver === "number" ? payload.ver : 0 };
  } catch {
    return null;
  }
}
