import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

/** The person signed in at the fake provider: their subject and the claims their ID token carries. */
export interface FakeIdentity {
  sub: string;
  claims: Record<string, unknown>;
}

/** Ways the fake's answers can be wrong, one per refusal a client must make. */
export interface FakeOidcTamper {
  /** `iss` of the ID token. */
  issuer?: string;
  /** `aud` of the ID token. */
  audience?: string;
  /** An ID token that expired an hour ago. */
  expired?: boolean;
  /** `alg: none`, no signature. */
  unsigned?: boolean;
  /** Signed by a key that is not in the provider's key set. */
  foreignKey?: boolean;
  /** `nonce` of the ID token. */
  nonce?: string;
  /** The `state` sent back to the client. */
  state?: string;
}

export interface FakeOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who is signed in at the provider (its login screen is skipped, as with an existing session there). */
  identity: FakeIdentity;
  tamper: FakeOidcTamper;
  /** Query parameters of every authorization request, in order. */
  authorizations: URLSearchParams[];
  /** Form fields of every token request, in order. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");

/**
 * An OpenID Connect provider on 127.0.0.1 speaking the real protocol: discovery, the authorization endpoint
 * (code flow, PKCE S256 required), the token endpoint (client_secret_post or _basic), the JWKS and userinfo,
 * with RS256 ID tokens signed by jose.
 */
export async function startFakeOidc(
  options: { clientId?: string; clientSecret?: string; identity?: FakeIdentity } = {},
): Promise<FakeOidc> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "fake-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, { params: URLSearchParams; identity: FakeIdentity; used: boolean }>();
  const accessTokens = new Map<string, FakeIdentity>();
  let issuer = "";
  const fake: FakeOidc = {
    issuer: "",
    clientId: options.clientId ?? "lectern-test",
    clientSecret: options.clientSecret ?? "fake-client-secret",
    identity: options.identity ?? { sub: "user-1", claims: { preferred_username: "alice" } },
    tamper: {},
    authorizations: [],
    tokenRequests: [],
    close: () => server.shutdown(),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };

  async function idToken(params: URLSearchParams, identity: FakeIdentity): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      ...identity.claims,
      nonce: fake.tamper.nonce ?? params.get("nonce") ?? undefined,
    };
    const issuedAt = fake.tamper.expired ? now - 7200 : now;
    if (fake.tamper.unsigned) {
      const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
      const payload = {
        ...claims,
        iss: fake.tamper.issuer ?? issuer,
        sub: identity.sub,
        aud: fake.tamper.audience ?? fake.clientId,
        iat: issuedAt,
        exp: issuedAt + 3600,
      };
      return `${encode({ alg: "none", typ: "JWT" })}.${encode(payload)}.`;
    }
    return await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "fake-key", typ: "JWT" })
      .setIssuer(fake.tamper.issuer ?? issuer).setSubject(identity.sub).setAudience(
        fake.tamper.audience ?? fake.clientId,
      )
      .setIssuedAt(issuedAt).setExpirationTime(issuedAt + 3600)
      .sign(fake.tamper.foreignKey ? foreign.privateKey : privateKey);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const json = (body: unknown, status = 200) => Response.json(body, { status });
    switch (url.pathname) {
      case "/.well-known/openid-configuration":
        return json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
          scopes_supported: ["openid", "profile", "email", "groups"],
        });
      case "/jwks":
        return json({ keys: [jwk] });
      case "/authorize": {
        const params = url.searchParams;
        fake.authorizations.push(params);
        const redirect = params.get("redirect_uri");
        if (params.get("client_id") !== fake.clientId || !redirect) {
          return new Response("Unknown client or redirect.", { status: 400 });
        }
        const back = new URL(redirect);
        if (params.get("response_type") !== "code" || params.get("code_challenge_method") !== "S256") {
          back.searchParams.set("error", "invalid_request");
          back.searchParams.set("error_description", "PKCE with S256 is required");
        } else {
          const code = crypto.randomUUID();
          codes.set(code, { params, identity: structuredClone(fake.identity), used: false });
          back.searchParams.set("code", code);
          back.searchParams.set("iss", issuer);
        }
        const state = fake.tamper.state ?? params.get("state");
        if (state) back.searchParams.set("state", state);
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      case "/token": {
        const form = new URLSearchParams(await request.text());
        fake.tokenRequests.push(form);
        const basic = request.headers.get("authorization");
        const [basicId, basicSecret] = basic?.startsWith("Basic ")
          ? atob(basic.slice(6)).split(":").map(decodeURIComponent)
          : [];
        const clientId = form.get("client_id") ?? basicId;
        const secret = form.get("client_secret") ?? basicSecret;
        if (clientId !== fake.clientId || secret !== fake.clientSecret) {
          return json({ error: "invalid_client", error_description: "Client authentication failed" }, 401);
        }
        const entry = codes.get(form.get("code") ?? "");
        if (!entry || entry.used || form.get("grant_type") !== "authorization_code") {
          return json({ error: "invalid_grant", error_description: "Unknown or used code" }, 400);
        }
        entry.used = true;
        if (form.get("redirect_uri") !== entry.params.get("redirect_uri")) {
          return json({ error: "invalid_grant", error_description: "redirect_uri mismatch" }, 400);
        }
        const verifier = form.get("code_verifier") ?? "";
        const challenge = base64url(
          new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
        );
        if (challenge !== entry.params.get("code_challenge")) {
          return json({ error: "invalid_grant", error_description: "PKCE verification failed" }, 400);
        }
        const accessToken = crypto.randomUUID();
        accessTokens.set(accessToken, entry.identity);
        return json({
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 300,
          id_token: await idToken(entry.params, entry.identity),
        });
      }
      case "/userinfo": {
        const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
        const identity = accessTokens.get(token);
        if (!identity) return json({ error: "invalid_token" }, 401);
        return json({ sub: identity.sub, ...identity.claims });
      }
    }
    return new Response("Not found", { status: 404 });
  });
  issuer = `http://127.0.0.1:${server.addr.port}`;
  fake.issuer = issuer;
  return fake;
}
