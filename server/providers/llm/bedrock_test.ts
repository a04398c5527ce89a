import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ProviderError } from "../../errors.ts";
import { bedrockChatModel, bedrockModels, type BedrockOptions, bedrockRuntimeEndpoint } from "./bedrock.ts";
import { sigV4Signature, startFakeBedrock } from "./testing/fake_bedrock.ts";
import type { ChatRequest } from "./types.ts";
import { collectParts } from "./testing/parts.ts";

const ID = "AKIDLECTERNTEST0001";
const SECRET = "lectern/secret+key/for-the-fake";
const TEMP_ID = "ASIALECTERNTEMP0001";
const TEMP_SECRET = "temporary/secret";
const TOKEN = "FwoGZXIvYXdzEJr//////////wEaDLectern+session/token==";
const MODEL = "anthropic.claude-3-haiku-20240307-v1:0";

const credentials = {
  [ID]: { secretAccessKey: SECRET },
  [TEMP_ID]: { secretAccessKey: TEMP_SECRET, sessionToken: TOKEN },
};

const model = (endpoint: string, extra: Partial<BedrockOptions> = {}) =>
  bedrockChatModel({
    connectionMethod: "iam",
    accessKeyId: ID,
    secretAccessKey: SECRET,
    region: "us-west-2",
    modelId: MODEL,
    contextWindow: 200_000,
    maxTokens: 300,
    endpoint,
    ...extra,
  });

const hello: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: "Hello." },
    { role: "user", content: "Context first." },
    {
      role: "user",
      content: "What is this?",
      images: [{ name: "a.jpg", mime: "image/jpeg", dataUrl: "data:image/jpeg;base64,/9j/4AAQ" }],
    },
  ],
  temperature: 1.4,
};

Deno.test("SigV4 in the fake: AWS's published get-vanilla example gives AWS's signature", () => {
  // From AWS's Signature Version 4 test suite (get-vanilla).
  assert.equal(
    sigV4Signature({
      method: "GET",
      path: "/",
      query: "",
      headers: { host: "example.amazonaws.com", "x-amz-date": "20150830T123600Z" },
      signedHeaders: ["host", "x-amz-date"],
      payloadHash: createHash("sha256").update("").digest("hex"),
      amzDate: "20150830T123600Z",
      scope: "20150830/us-east-1/service/aws4_request",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    }),
    "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
  );
});

Deno.test("Bedrock (iam): a signed ConverseStream answers in event-stream frames, with usage from metadata", async () => {
  await using fake = startFakeBedrock({ credentials, models: [MODEL] });
  const { text, usage, all } = await collectParts(
    model(fake.endpoint).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "Hello from Bedrock.");
  assert.deepEqual(usage, { type: "usage", inputTokens: 21, outputTokens: 4 });
  assert.equal(all.at(-1)?.type, "usage");
  assert.deepEqual(fake.refusals, []);
  const [request] = fake.requests;
  assert.equal(request.modelId, MODEL, "the model id, colon and all, is one path segment");
  assert.match(
    request.headers.get("authorization")!,
    new RegExp(`^AWS4-HMAC-SHA256 Credential=${ID}/\\d{8}/us-west-2/bedrock/aws4_request`),
  );
  assert.equal(request.headers.get("x-amz-security-token"), null, "the iam method sends no session token");
  assert.deepEqual(request.body, {
    messages: [
      { role: "user", content: [{ text: "Hi" }] },
      { role: "assistant", content: [{ text: "Hello." }] },
      {
        role: "user",
        content: [
          { text: "Context first." },
          { image: { format: "jpeg", source: { bytes: "/9j/4AAQ" } } },
          { text: "What is this?" },
        ],
      },
    ],
    system: [{ text: "You are terse." }],
    inferenceConfig: { maxTokens: 300, temperature: 1 },
  });
});

Deno.test("Bedrock (sessionToken): the token is sent and signed; a wrong one is refused in AWS's words", async () => {
  await using fake = startFakeBedrock({ credentials });
  const temporary = {
    connectionMethod: "sessionToken" as const,
    accessKeyId: TEMP_ID,
    secretAccessKey: TEMP_SECRET,
  };
  const { text } = await collectParts(
    model(fake.endpoint, { ...temporary, sessionToken: TOKEN }).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "Hello from Bedrock.");
  assert.equal(fake.requests[0].headers.get("x-amz-security-token"), TOKEN);
  assert.match(fake.requests[0].headers.get("authorization")!, /SignedHeaders=[^,]*x-amz-security-token/);
  await assert.rejects(
    collectParts(
      model(fake.endpoint, { ...temporary, sessionToken: "expired" }).stream(
        hello,
        new AbortController().signal,
      ),
    ),
    {
      message:
        "AWS Bedrock answered 403 (UnrecognizedClientException): The security token included in the request is invalid.",
    },
  );
  await assert.rejects(
    collectParts(model(fake.endpoint, temporary).stream(hello, new AbortController().signal)),
    {
      name: "ProviderError",
      message: "AWS Bedrock is not configured: AwsBedrockLLMSessionToken is not set.",
    },
  );
});

Deno.test("Bedrock: a wrong secret or a request changed after signing is refused with AWS's 403", async () => {
  await using fake = startFakeBedrock({ credentials });
  const mismatch =
    "AWS Bedrock answered 403 (InvalidSignatureException): The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
  await assert.rejects(
    collectParts(
      model(fake.endpoint, { secretAccessKey: "not-the-secret" }).stream(hello, new AbortController().signal),
    ),
    (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, mismatch);
      assert.equal(error.status, 403);
      return true;
    },
  );
  // The same signature on another body: the payload hash no longer matches.
  const tampering: typeof fetch = (input, init) =>
    fetch(input, { ...init, body: String(init?.body).replace("Hi", "Ho") });
  await assert.rejects(
    collectParts(model(fake.endpoint, { fetch: tampering }).stream(hello, new AbortController().signal)),
    { message: mismatch },
  );
  await assert.rejects(
    collectParts(model(fake.endpoint, { region: "eu-west-1" }).stream(hello, new AbortController().signal)),
    /InvalidSignatureException\): Credential should be scoped to a valid region\./,
  );
  await assert.rejects(
    collectParts(
      model(fake.endpoint, { accessKeyId: "AKIDUNKNOWN" }).stream(hello, new AbortController().signal),
    ),
    /UnrecognizedClientException\): The security token included in the request is invalid\./,
  );
  assert.equal(fake.refusals.length, 4);
  assert.equal(fake.requests.length, 0, "no refused request reached the model");
});

Deno.test("Bedrock: reasoning content comes first, in <think>", async () => {
  await using fake = startFakeBedrock({ credentials });
  fake.setReply(() => ({
    reasoning: ["Weighing ", "it."],
    chunks: ["Yes."],
    usage: { inputTokens: 2, outputTokens: 9 },
  }));
  const { text, usage } = await collectParts(
    model(fake.endpoint).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "<think>Weighing it.</think>Yes.");
  assert.deepEqual(usage, { type: "usage", inputTokens: 2, outputTokens: 9 });
});

Deno.test("Bedrock: AWS's errors, stream exceptions, damaged frames, garbage and a cut stream become ProviderErrors", async () => {
  await using fake = startFakeBedrock({ credentials, models: [MODEL] });
  const signal = new AbortController().signal;
  await assert.rejects(
    collectParts(model(fake.endpoint, { modelId: "no.such-model" }).stream(hello, signal)),
    {
      message: "AWS Bedrock answered 400 (ValidationException): The provided model identifier is invalid.",
    },
  );
  fake.setReply(() => ({
    status: 429,
    type: "ThrottlingException",
    message: "Too many requests, please wait before trying again.",
  }));
  await assert.rejects(collectParts(model(fake.endpoint).stream(hello, signal)), {
    message:
      "AWS Bedrock answered 429 (ThrottlingException): Too many requests, please wait before trying again.",
  });
  fake.setReply(() => ({
    chunks: ["Part ", "of it"],
    exceptionAfter: {
      frames: 2,
      type: "modelStreamErrorException",
      message: "The model stopped unexpectedly",
    },
  }));
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const part of model(fake.endpoint).stream(hello, signal)) {
        if (part.type === "text-delta") seen.push(part.text);
      }
    })(),
    {
      name: "ProviderError",
      message: "AWS Bedrock failed (modelStreamErrorException): The model stopped unexpectedly.",
    },
  );
  assert.deepEqual(seen, ["Part "]);
  fake.setReply(() => ({ chunks: ["x"], stopReason: "guardrail_intervened" }));
  await assert.rejects(collectParts(model(fake.endpoint).stream(hello, signal)), {
    message: "AWS Bedrock stopped the answer (guardrail_intervened).",
  });
  // A frame whose last byte (its CRC) is wrong.
  const damaged = new Uint8Array([0, 0, 0, 16, 0, 0, 0, 0, 5, 194, 72, 235, 0, 0, 0, 1]);
  fake.setReply(() => ({ raw: { contentType: "application/vnd.amazon.eventstream", body: damaged } }));
  await assert.rejects(
    collectParts(model(fake.endpoint).stream(hello, signal)),
    /^ProviderError: AWS Bedrock sent a damaged event stream: /,
  );
  fake.setReply(() => ({ raw: { contentType: "text/html", body: "<html>captive portal</html>" } }));
  await assert.rejects(
    collectParts(model(fake.endpoint).stream(hello, signal)),
    /AWS Bedrock answered with text\/html instead of a stream of tokens/,
  );
  fake.setReply(() => ({ chunks: ["a", "b"], closeAfter: 3 }));
  await assert.rejects(collectParts(model(fake.endpoint).stream(hello, signal)), {
    message: "The answer from AWS Bedrock ended before it was complete.",
  });
});

Deno.test("Bedrock: an abort stops the stream and closes the connection", async () => {
  await using fake = startFakeBedrock({ credentials });
  fake.setReply(() => ({ chunks: ["one ", "two"], hangAfter: 2 }));
  const controller = new AbortController();
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const part of model(fake.endpoint).stream(hello, controller.signal)) {
        if (part.type === "text-delta") seen.push(part.text);
        controller.abort();
      }
    })(),
    (error: Error) => error.name === "AbortError",
  );
  assert.deepEqual(seen, ["one "]);
  await fake.clientGone;
});

Deno.test("Bedrock: the region names the runtime's host; anything else is refused", () => {
  assert.equal(bedrockRuntimeEndpoint("eu-central-1"), "https://bedrock-runtime.eu-central-1.amazonaws.com");
  assert.equal(
    bedrockRuntimeEndpoint("us-gov-west-1"),
    "https://bedrock-runtime.us-gov-west-1.amazonaws.com",
  );
  assert.throws(() => bedrockRuntimeEndpoint("evil.example/x"), {
    name: "ProviderError",
    message: 'AWS Bedrock: "evil.example/x" is not the name of an AWS region.',
  });
});

Deno.test("Bedrock: the lookup lists on-demand streaming text models by maker, signed like a chat", async () => {
  const summary = (modelId: string, providerName: string, extra: Record<string, unknown> = {}) => ({
    modelArn: `arn:aws:bedrock:us-west-2::foundation-model/${modelId}`,
    modelId,
    modelName: modelId.split(".")[1],
    providerName,
    inputModalities: ["TEXT"],
    outputModalities: ["TEXT"],
    responseStreamingSupported: true,
    inferenceTypesSupported: ["ON_DEMAND"],
    modelLifecycle: { status: "ACTIVE" },
    ...extra,
  });
  await using fake = startFakeBedrock({
    credentials,
    foundationModels: [
      summary("meta.llama3-8b-instruct-v1:0", "Meta"),
      summary(MODEL, "Anthropic"),
      summary("amazon.titan-embed-text-v2:0", "Amazon", { outputModalities: ["EMBEDDING"] }),
      summary("anthropic.claude-v2", "Anthropic", { modelLifecycle: { status: "LEGACY" } }),
      summary("anthropic.claude-sonnet-4", "Anthropic", { inferenceTypesSupported: ["INFERENCE_PROFILE"] }),
    ],
  });
  const lookup = {
    connectionMethod: "iam" as const,
    accessKeyId: ID,
    secretAccessKey: SECRET,
    endpoint: fake.endpoint,
  };
  assert.deepEqual(await bedrockModels(lookup), [
    { id: MODEL, name: "claude-3-haiku-20240307-v1:0", organization: "Anthropic" },
    { id: "meta.llama3-8b-instruct-v1:0", name: "llama3-8b-instruct-v1:0", organization: "Meta" },
  ]);
  assert.deepEqual(fake.listQueries, ["?byOutputModality=TEXT"]);
  assert.deepEqual(await bedrockModels({ ...lookup, secretAccessKey: undefined }), [], "no keys, no lookup");
  await assert.rejects(
    bedrockModels({ ...lookup, secretAccessKey: "wrong" }),
    /^ProviderError: AWS Bedrock answered 403 \(InvalidSignatureException\)/,
  );
});
