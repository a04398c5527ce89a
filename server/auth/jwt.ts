import { jwtVerify, SignJWT } from "jose";

export interface SessionClaims {
  /** The user's id, or "instance" for a single-user password session. */
  sub: string;
}

/** Signs a session token with the instance key (HS256). */
export async function signSession(
  key: Uint8Array,
  claims: SessionClaims,
  expiresIn = "30d",
): Promise<string> {
  return await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(claims.sub).setIssuedAt()
    .setExpirationTime(expiresIn).sign(key);
}

/** The token's claims, or null when it is malformed, tampered with or expired. */
export async function verifySession(key: Uint8Array, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
    return typeof payload.sub === "string" ? { sub: payload.sub } : null;
  } catch {
    return null;
  }
}
