import { createHash, createHmac } from "node:crypto";
import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { heldStream } from "./held_stream.ts";

// ---------------------------------------------------------------------------------------------------------------
// Signature V4, written here from AWS's description (not with the library the adapter signs with), so that the
// fake checks the adapter's signing instead of repeating it.
// ---------------------------------------------------------------------------------------------------------------

/** RFC 3986 encoding, as SigV4 wants it: only A-Z a-z 0-9 - _ . ~ left as they are. */
const strictEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Uint8Array, data: string) =>
  new Uint8Array(createHmac("sha256", key).update(data).digest());

export interface SignedParts {
  method: string;
  /** The path as sent on the wire (its segments already percent-encoded once). */
  path: string;
  /** The query as sent, without `?`. */
  query: string;
  /** Lowercase name → value, for the signed headers. */
  headers: Record<string, string>;
  signedHeaders: string[];
  /** The payload's SHA-256 in hex. */
  payloadHash: string;
  amzDate: string;
  /** `20260101/us-west-2/bedrock/aws4_request` */
  scope: string;
  secretAccessKey: string;
}

/** The canonical request of SigV4 for a service other than S3 (path segments encoded a second time). */
export function canonicalRequest(parts: SignedParts): string {
  const path = parts.path.split("/").map((segment) => strictEncode(segment)).join("/") || "/";
  const query = parts.query.split("&").filter(Boolean).map((pair) => {
    const [key, value = ""] = pair.split("=");
    const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));
    return [strictEncode(decode(key)), strictEncode(decode(value))];
  }).sort(([k1, v1], [k2, v2]) => k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0)
    .map(([key, value]) => `${key}=${value}`).join("&");
  const headers = parts.signedHeaders.map((name) =>
    `${name}:${(parts.headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`
  ).join("");
  return [parts.method, path, query, headers, parts.signedHeaders.join(";"), parts.payloadHash].join("\n");
}

/** The hex signature SigV4 gives `parts`. */
export function sigV4Signature(parts: SignedParts): string {
  const [date, region, service] = parts.scope.split("/");
  const stringToSign = ["AWS4-HMAC-SHA256", parts.amzDate, parts.scope, sha256Hex(canonicalRequest(parts))]
    .join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${parts.secretAccessKey}`, date), region), service), "aws4_request");
  return createHmac("sha256", key).update(stringToSign).digest("hex");
}

export interface AwsCredential {
  secretAccessKey: string;
  /** Temporary credentials: the request must carry (and sign) this X-Amz-Security-Token. */
  sessionToken?: string;
}

export interface Refusal {
  status: number;
  type: string;
  message: string;
}

const SIGNATURE_MISMATCH =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
const INVALID_TOKEN = "The security token included in the request is invalid.";

/** Checks a request's SigV4 header as AWS does; the refusal AWS would answer, or null when it is good. */
export function verifySigV4(
  request: { method: string; url: string; headers: Headers; body: Uint8Array },
  expect: { credentials: Record<string, AwsCredential>; region: string; service: string; now?: Date },
): Refusal | null {
  const authorization = request.headers.get("authorization");
  if (!authorization) {
    return {
      status: 403,
      type: "MissingAuthenticationTokenException",
      message: "Missing Authentication Token",
    };
  }
  const match = authorization.match(
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8}\/[^/]+\/[^/]+\/aws4_request), ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/,
  );
  if (!match) {
    return {
      status: 400,
      type: "IncompleteSignatureException",
      message: `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters.`,
    };
  }
  const [, accessKeyId, scope, signedHeaderList, signature] = match;
  const credential = expect.credentials[accessKeyId];
  if (!credential) return { status: 403, type: "UnrecognizedClientException", message: INVALID_TOKEN };
  const signedHeaders = signedHeaderList.split(";");
  const token = request.headers.get("x-amz-security-token");
  if (credential.sessionToken !== undefined || token !== null) {
    if (token !== credential.sessionToken || !signedHeaders.includes("x-amz-security-token")) {
      return { status: 403, type: "UnrecognizedClientException", message: INVALID_TOKEN };
    }
  }
  const [date, region, service] = scope.split("/");
  if (region !== expect.region) {
    return {
      status: 403,
      type: "InvalidSignatureException",
      message: `Credential should be scoped to a valid region.`,
    };
  }
  if (service !== expect.service) {
    return {
      status: 403,
      type: "InvalidSignatureException",
      message: `Credential should be scoped to correct service: '${expect.service}'.`,
    };
  }
  const amzDate = request.headers.get("x-amz-date") ?? "";
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date) {
    return { status: 403, type: "InvalidSignatureException", message: SIGNATURE_MISMATCH };
  }
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${
      amzDate.slice(11, 13)
    }:${amzDate.slice(13, 15)}Z`,
  );
  if (Math.abs((expect.now ?? new Date()).getTime() - signedAt) > 15 * 60 * 1000) {
    return {
      status: 403,
      type: "InvalidSignatureException",
      message: `Signature expired: ${amzDate} is now earlier or later than the allowed time.`,
    };
  }
  if (!signedHeaders.includes("host")) {
    return {
      status: 403,
      type: "InvalidSignatureException",
      message: "'Host' must be a 'SignedHeader' in the AWS Authorization.",
    };
  }
  const url = new URL(request.url);
  const raw = request.url.replace(/^[a-z]+:\/\/[^/]+/i, "");
  const expected = sigV4Signature({
    method: request.method,
    path: raw.split("?")[0],
    query: raw.includes("?") ? raw.slice(raw.indexOf("?") + 1) : "",
    headers: Object.fromEntries(
      signedHeaders.map((
        name,
      ) => [
        name,
        name === "host" ? request.headers.get("host") ?? url.host : request.headers.get(name) ?? "",
      ]),
    ),
    signedHeaders,
    payloadHash: request.headers.get("x-amz-content-sha256") ?? sha256Hex(request.body),
    amzDate,
    scope,
    secretAccessKey: credential.secretAccessKey,
  });
  return expected === signature
    ? null
    : { status: 403, type: "InvalidSignatureException", message: SIGNATURE_MISMATCH };
}

// ---------------------------------------------------------------------------------------------------------------
// The Bedrock Runtime fake.
// ---------------------------------------------------------------------------------------------------------------

/** How the fake answers one converse-stream. */
export interface BedrockReply {
  chunks?: string[];
  /** reasoningContent deltas before the text. */
  reasoning?: string[];
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number };
  /** Fail before streaming: status, AWS error type and message. */
  status?: number;
  type?: string;
  message?: string;
  /** After this many frames, an exception frame (`:message-type` exception) with this type and message. */
  exceptionAfter?: { frames: number; type: string; message: string };
  raw?: { status?: number; contentType: string; body: Uint8Array<ArrayBuffer> | string };
  hangAfter?: number;
  closeAfter?: number;
}

export interface FakeBedrock {
  /** `http://127.0.0.1:<port>`, given to the adapter as its endpoint. */
  endpoint: string;
  /** Requests whose signature held. */
  requests: { modelId: string; body: Record<string, unknown>; headers: Headers }[];
  /** Requests refused, with what was answered. */
  refusals: Refusal[];
  /** The query strings of the model-list calls. */
  listQueries: string[];
  setReply(reply: (body: Record<string, unknown>) => BedrockReply): void;
  clientGone: Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Bedrock Runtime on loopback: `POST /model/{modelId}/converse-stream`, signed requests only (the signature
 * recomputed with the known secret; a bad one gets AWS's 403 JSON and x-amzn-ErrorType), answered in real
 * application/vnd.amazon.eventstream frames (prelude, headers, JSON payload, CRCs) as ConverseStream sends
 * them: messageStart, contentBlockDelta…, contentBlockStop, messageStop, metadata.
 */
export function startFakeBedrock(
  options: {
    credentials: Record<string, AwsCredential>;
    region?: string;
    models?: string[];
    /** ListFoundationModels' summaries, served at `GET /foundation-models`. */
    foundationModels?: Record<string, unknown>[];
  },
): FakeBedrock {
  const listQueries: string[] = [];
  const region = options.region ?? "us-west-2";
  let reply: (body: Record<string, unknown>) => BedrockReply = () => ({
    chunks: ["Hello ", "from ", "Bedrock."],
    usage: { inputTokens: 21, outputTokens: 4 },
  });
  const requests: FakeBedrock["requests"] = [];
  const refusals: Refusal[] = [];
  let gone!: () => void;
  const clientGone = new Promise<void>((resolve) => (gone = resolve));
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const awsError = (refusal: Refusal) =>
    new Response(JSON.stringify({ message: refusal.message }), {
      status: refusal.status,
      headers: {
        "Content-Type": "application/json",
        "x-amzn-ErrorType": `${refusal.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      },
    });
  const frame = (messageType: "event" | "exception", type: string, payload: Record<string, unknown>) =>
    codec.encode({
      headers: {
        ":message-type": { type: "string", value: messageType },
        [messageType === "event" ? ":event-type" : ":exception-type"]: { type: "string", value: type },
        ":content-type": { type: "string", value: "application/json" },
      },
      // The real service pads each payload with a "p" field of varying length.
      body: fromUtf8(
        JSON.stringify({
          ...payload,
          ...(messageType === "event" ? { p: "abcdefghij".slice(0, 1 + type.length % 9) } : {}),
        }),
      ),
    });

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    const refusal = verifySigV4(
      { method: request.method, url: request.url, headers: request.headers, body },
      {
        credentials: options.credentials,
        region,
        service: "bedrock",
      },
    );
    if (refusal) {
      refusals.push(refusal);
      return awsError(refusal);
    }
    if (request.method === "GET" && url.pathname === "/foundation-models") {
      listQueries.push(url.search);
      const modality = url.searchParams.get("byOutputModality");
      return Response.json({
        modelSummaries: (options.foundationModels ?? []).filter((model) =>
          !modality || (model.outputModalities as string[] | undefined)?.includes(modality)
        ),
      });
    }
    const route = url.pathname.match(/^\/model\/([^/]+)\/converse-stream$/);
    if (request.method !== "POST" || !route) {
      return awsError({ status: 404, type: "UnknownOperationException", message: "Unknown operation." });
    }
    const modelId = decodeURIComponent(route[1]);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(toUtf8(body));
    } catch {
      return awsError({
        status: 400,
        type: "SerializationException",
        message: "Unable to parse the request body.",
      });
    }
    requests.push({ modelId, body: json, headers: request.headers });
    if (options.models && !options.models.includes(modelId)) {
      return awsError({
        status: 400,
        type: "ValidationException",
        message: "The provided model identifier is invalid.",
      });
    }
    const script = reply(json);
    if (script.raw) {
      return new Response(script.raw.body, {
        status: script.raw.status ?? 200,
        headers: { "Content-Type": script.raw.contentType },
      });
    }
    if (script.status) {
      return awsError({
        status: script.status,
        type: script.type ?? "ValidationException",
        message: script.message ?? "Failed.",
      });
    }
    const frames: Uint8Array[] = [frame("event", "messageStart", { role: "assistant" })];
    let block = 0;
    if (script.reasoning?.length) {
      for (const text of script.reasoning) {
        frames.push(
          frame("event", "contentBlockDelta", {
            contentBlockIndex: block,
            delta: { reasoningContent: { text } },
          }),
        );
      }
      frames.push(frame("event", "contentBlockStop", { contentBlockIndex: block++ }));
    }
    for (const text of script.chunks ?? []) {
      frames.push(frame("event", "contentBlockDelta", { contentBlockIndex: block, delta: { text } }));
    }
    frames.push(frame("event", "contentBlockStop", { contentBlockIndex: block }));
    frames.push(frame("event", "messageStop", { stopReason: script.stopReason ?? "end_turn" }));
    const usage = script.usage ?? { inputTokens: 0, outputTokens: 0 };
    frames.push(frame("event", "metadata", {
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 120 },
    }));
    if (script.exceptionAfter) {
      frames.splice(
        script.exceptionAfter.frames,
        frames.length,
        frame("exception", script.exceptionAfter.type, { message: script.exceptionAfter.message }),
      );
    }
    return new Response(
      heldStream(frames, { hangAfter: script.hangAfter, closeAfter: script.closeAfter, gone }),
      {
        headers: {
          "Content-Type": "application/vnd.amazon.eventstream",
          "x-amzn-RequestId": crypto.randomUUID(),
        },
      },
    );
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const close = async () => await server.shutdown();
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    requests,
    refusals,
    listQueries,
    setReply: (next) => (reply = next),
    clientGone,
    close,
    [Symbol.asyncDispose]: close,
  };
}
