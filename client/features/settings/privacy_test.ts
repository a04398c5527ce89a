import assert from "node:assert/strict";
import {
  type DataHandling,
  EMBEDDER_RECEIVES,
  LLM_RECEIVES,
  SENT_DATA,
  VECTOR_DB_RECEIVES,
} from "../../../shared/providers/data_handling.ts";
import { EMBEDDERS, VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import { LLM_PROVIDERS, llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { SETTING_KEYS } from "../../../shared/settings.ts";
import en from "../../locales/en.json" with { type: "json" };
import {
  type Destination,
  destinationKey,
  destinationOf,
  hostOf,
  noteKey,
  type PrivacyRow,
  privacyRows,
  reachOf,
} from "./privacy.ts";
import type { SetupResults } from "./setup.ts";

const SETUP: SetupResults = { MultiUserMode: false, RequiresAuth: false, LLMProvider: null, VectorDB: null };

Deno.test("privacyRows() names each chosen service and says what it receives and where it goes", () => {
  const rows = privacyRows({
    ...SETUP,
    LLMProvider: "ollama",
    OllamaLLMBasePath: "http://127.0.0.1:11434",
    EmbeddingEngine: "native",
    VectorDB: "chroma",
    ChromaEndpoint: "https://chroma.example.org:8443/api",
    WhisperProvider: "generic-openai",
    WhisperGenericOpenAiBaseUrl: "http://192.168.1.20:8000/v1",
  });
  assert.deepEqual(rows, [
    {
      area: "llm",
      id: "ollama",
      name: "Ollama",
      known: true,
      receives: ["prompts", "chatHistory", "retrievedText", "attachments"],
      destination: { kind: "host", host: "127.0.0.1:11434", reach: "thisMachine", vendor: false },
      policyUrl: null,
    },
    {
      area: "embedder",
      id: "native",
      name: "Lectern Embedder",
      known: true,
      receives: ["documentText", "queries"],
      destination: { kind: "thisMachine" },
      policyUrl: null,
    },
    {
      area: "vectorDb",
      id: "chroma",
      name: "Chroma",
      known: true,
      receives: ["vectors", "chunkText"],
      destination: { kind: "host", host: "chroma.example.org:8443", reach: "internet", vendor: false },
      policyUrl: null,
    },
    {
      area: "transcription",
      id: "generic-openai",
      name: "OpenAI Compatible",
      known: true,
      receives: ["audio"],
      destination: { kind: "host", host: "192.168.1.20:8000", reach: "privateNetwork", vendor: false },
      policyUrl: null,
    },
  ]);
});

Deno.test("privacyRows() takes openai and lancedb when unset; a hosted vendor goes to its API host", () => {
  const rows = privacyRows(SETUP);
  assert.deepEqual(rows.map((row) => [row.area, row.id, row.name, row.known]), [
    ["llm", null, null, false],
    ["embedder", "openai", "OpenAI", true],
    ["vectorDb", "lancedb", "LanceDB", true],
    ["transcription", "local", "Lectern Built-In", true],
  ]);
  assert.deepEqual(rows[1].destination, {
    kind: "host",
    host: "api.openai.com",
    reach: "internet",
    vendor: true,
  });
  assert.equal(rows[1].policyUrl, "https://openai.com/policies/privacy-policy/");
  assert.deepEqual(rows[2].destination, { kind: "thisMachine" });
  assert.deepEqual(rows[3].destination, { kind: "thisMachine" }, "the built-in transcription stays here");
  const [, , , openai] = privacyRows({ ...SETUP, WhisperProvider: "openai" });
  assert.deepEqual(openai.destination, {
    kind: "host",
    host: "api.openai.com",
    reach: "internet",
    vendor: true,
  });
});

Deno.test("privacyRows(): an unknown id is shown as it is, with no facts; an unset address is said so", () => {
  const [llm, , vectorDb] = privacyRows({ ...SETUP, LLMProvider: "someday", VectorDB: "mystery" });
  assert.deepEqual(llm, {
    area: "llm",
    id: "someday",
    name: "someday",
    known: false,
    receives: [],
    destination: { kind: "unknown" },
    policyUrl: null,
  });
  assert.equal(vectorDb.known, false);
  const [generic] = privacyRows({ ...SETUP, LLMProvider: "generic-openai" });
  assert.deepEqual(generic.destination, { kind: "notSet", key: "GenericOpenAiBasePath" });
  const [azure] = privacyRows({ ...SETUP, LLMProvider: "azure", AzureOpenAiEndpoint: "not a url" });
  assert.deepEqual(azure.destination, { kind: "notSet", key: "AzureOpenAiEndpoint" });
});

Deno.test("reachOf() tells this machine, the admin's network and the internet apart", () => {
  for (const host of ["localhost", "api.localhost", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "0.0.0.0"]) {
    assert.equal(reachOf(host), "thisMachine", host);
  }
  for (
    const host of [
      "10.0.0.5",
      "172.16.0.1",
      "172.31.255.1",
      "192.168.1.20",
      "169.254.1.1",
      "100.64.0.1",
      "fd12:3456::1",
      "fe80::1",
      "ollama",
      "host.docker.internal",
      "nas.local",
      "box.lan",
      "pi.home.arpa",
    ]
  ) {
    assert.equal(reachOf(host), "privateNetwork", host);
  }
  for (
    const host of ["api.openai.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2001:db8::1", "example.org."]
  ) {
    assert.equal(reachOf(host), "internet", host);
  }
});

Deno.test("hostOf() gives the host and port of an http(s) URL, else null", () => {
  assert.equal(hostOf("http://localhost:1234/v1"), "localhost:1234");
  assert.equal(hostOf("https://my.openai.azure.com"), "my.openai.azure.com");
  assert.equal(hostOf("http://[::1]:11434"), "[::1]:11434");
  for (const value of ["", "  ", "ftp://files.example.org", "localhost:1234", undefined, 42, true]) {
    assert.equal(hostOf(value), null, String(value));
  }
});

Deno.test("destinationOf() reads the configured address of an endpoint from the settings", () => {
  const handling = { receives: LLM_RECEIVES, destination: { to: "endpoint" as const, key: "X" } };
  assert.deepEqual(destinationOf(handling, { X: "http://[::1]:8080/v1" }), {
    kind: "host",
    host: "[::1]:8080",
    reach: "thisMachine",
    vendor: false,
  });
  assert.deepEqual(destinationOf(handling, { X: "http://10.1.2.3" }), {
    kind: "host",
    host: "10.1.2.3",
    reach: "privateNetwork",
    vendor: false,
  });
  assert.deepEqual(destinationOf({ ...handling, destination: { to: "vendor" } }, {}), { kind: "vendor" });
});

Deno.test("destinationKey() and noteKey() pick the sentence for each case", () => {
  const base: PrivacyRow = {
    area: "llm",
    id: "x",
    name: "X",
    known: true,
    receives: LLM_RECEIVES,
    destination: { kind: "thisMachine" },
    policyUrl: null,
  };
  const host = (reach: "thisMachine" | "privateNetwork" | "internet", vendor: boolean) => ({
    kind: "host" as const,
    host: "h",
    reach,
    vendor,
  });
  assert.equal(destinationKey({ kind: "thisMachine" }), "thisMachine");
  assert.equal(destinationKey(host("privateNetwork", false)), "host.privateNetwork");
  assert.equal(destinationKey(host("internet", true)), "vendorHost");
  assert.equal(destinationKey({ kind: "notSet", key: "K" }), "notSet");
  assert.equal(destinationKey({ kind: "vendor" }), "vendor");

  assert.equal(noteKey(base), "staysHere");
  assert.equal(noteKey({ ...base, destination: host("thisMachine", false) }), "staysHere");
  assert.equal(noteKey({ ...base, destination: host("privateNetwork", false) }), "theirTerms");
  assert.equal(noteKey({ ...base, destination: host("internet", true), policyUrl: "https://p" }), "policy");
  assert.equal(noteKey({ ...base, destination: { kind: "vendor" } }), "vendorTerms");
  assert.equal(noteKey({ ...base, id: null }), "unset.llm");
  assert.equal(noteKey({ ...base, known: false }), "unknown");
});

type Row = { id: string; kind: string; dataHandling: DataHandling };

function checkCatalog(rows: readonly Row[], receives: readonly string[], selectable: (row: Row) => boolean) {
  const settingKeys = new Set(SETTING_KEYS.map((definition) => definition.key));
  for (const row of rows) {
    const handling = row.dataHandling;
    assert.deepEqual(handling.receives, receives, row.id);
    assert.equal(handling.destination.to === "this-machine", row.kind === "built-in", row.id);
    if (handling.policyUrl) assert.match(handling.policyUrl, /^https:\/\/[^/]+\//, row.id);
    // A provider that can be chosen sends to an address the admin can set, or to a fixed place.
    if (selectable(row) && handling.destination.to === "endpoint") {
      assert.ok(settingKeys.has(handling.destination.key), `${row.id}: ${handling.destination.key}`);
    }
  }
}

Deno.test("every catalog row says what it receives and where it goes; configured addresses are settings", () => {
  checkCatalog(LLM_PROVIDERS, LLM_RECEIVES, (row) => (llmProvider(row.id)?.fields.length ?? 0) > 0);
  checkCatalog(EMBEDDERS, EMBEDDER_RECEIVES, () => true);
  checkCatalog(
    VECTOR_DBS,
    VECTOR_DB_RECEIVES,
    (row) => VECTOR_DBS.some((db) => db.id === row.id && db.builtIn),
  );
});

Deno.test("every sentence the privacy cards can pick is in the English locale", () => {
  const privacy = en.settings.privacy as Record<string, unknown>;
  const text = (path: string) =>
    path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], privacy);
  for (const kind of SENT_DATA) assert.equal(typeof text(`sent.${kind}`), "string", kind);
  const destinations: Destination[] = [
    { kind: "thisMachine" },
    { kind: "vendor" },
    { kind: "notSet", key: "K" },
    { kind: "unknown" },
    ...(["thisMachine", "privateNetwork", "internet"] as const).flatMap((reach) =>
      [true, false].map((vendor) => ({ kind: "host" as const, host: "h", reach, vendor }))
    ),
  ];
  for (const destination of destinations) {
    assert.equal(typeof text(`where.${destinationKey(destination)}`), "string", JSON.stringify(destination));
    for (const policyUrl of [null, "https://p.example/"]) {
      for (const id of [null, "x"]) {
        for (const known of [true, false]) {
          const row: PrivacyRow = { area: "llm", id, name: "X", known, receives: [], destination, policyUrl };
          assert.equal(typeof text(`note.${noteKey(row)}`), "string", JSON.stringify(row));
        }
      }
    }
  }
  for (const area of ["llm", "embedder", "vectorDb", "transcription"]) {
    assert.equal(typeof text(`areas.${area}`), "string");
    assert.equal(typeof text(`note.unset.${area}`), "string");
  }
});
