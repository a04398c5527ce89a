import type { LexicalPair } from "./lexical_margins.ts";

// The tests that upload a document, embed it with the built-in embedder and expect a search (a chat's
// context, its sources, a vector search) to find one of its chunks under the workspace's threshold (0.25 unless
// set). Their question's cosine with the chunk moves with the upload time in the chunk's header:
// lexical_margins_test.ts checks that it stays MIN_MARGIN above the threshold. A test that asks a new question
// of an uploaded document, or uploads a new one, and counts on what the search finds adds its pair here.
// Each pair's question, and each line of its chunk's text (or `quoted`), must appear in `test` (or `from`).

/** FREEDONIA of server/developer_api/chat_fixtures.ts (and of agents/session_test.ts). */
const FREEDONIA = "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.";
/** The two-paragraph FREEDONIA of chat/routes_test.ts, embeds/routes_test.ts and the browser tests. */
const FREEDONIA_EXPORTS =
  `${FREEDONIA}\n\nFreedonia exports cheese and violins. Its national bird is the grey heron.`;
const FIXTURES = "server/developer_api/chat_fixtures.ts";

const found = (
  test: string,
  query: string,
  title: string,
  text: string,
  more: Partial<Pick<LexicalPair, "from" | "quoted" | "threshold">> = {},
): LexicalPair => ({
  test,
  query,
  chunk: { title, text },
  threshold: 0.25,
  expect: "found",
  ...more,
});

const REMOTE_STORES = ["qdrant", "pinecone", "weaviate", "astra", "milvus", "zilliz"];

export const LEXICAL_PAIRS: LexicalPair[] = [
  found(
    "server/developer_api/chat_test.ts",
    "What is the capital of Freedonia?",
    "freedonia.txt",
    FREEDONIA,
    {
      from: FIXTURES,
    },
  ),
  ...["What is the capital of Freedonia?", "Stream the capital of Freedonia", "Freedonia capital again"].map((
    query,
  ) => found("server/developer_api/openai_test.ts", query, "freedonia.txt", FREEDONIA, { from: FIXTURES })),
  found("server/developer_api/openai_test.ts", "Capital of Freedonia?", "freedonia.txt", FREEDONIA, {
    from: FIXTURES,
  }),
  found("server/agents/session_test.ts", "capital of Freedonia", "freedonia.txt", FREEDONIA),
  found(
    "server/chat/routes_test.ts",
    "What is the capital of Freedonia?",
    "freedonia.txt",
    FREEDONIA_EXPORTS,
  ),
  ...[
    "What is the capital of Freedonia?",
    "And on which river is the capital of Freedonia?",
    "What does the small country of Freedonia export?",
  ].map((query) => found("server/embeds/routes_test.ts", query, "freedonia.txt", FREEDONIA_EXPORTS)),
  found(
    "server/chat/retrieve_test.ts",
    "Where is Freedonia's cheese aged?",
    "cheese.txt",
    "Freedonia exports cheese and violins. Its cheese is aged in caves for two years.",
  ),
  found(
    "server/embedding/service_test.ts",
    "What do herons eat?",
    "herons.txt",
    "Herons eat fish and frogs. The grey heron nests in colonies near rivers.",
  ),
  found(
    "server/embedding/service_test.ts",
    "When do cranes dance?",
    "cranes.txt",
    "Cranes dance in spring. The common crane migrates south in autumn.",
  ),
  ...REMOTE_STORES.map((id) =>
    found(
      "server/providers/vectors/remote_stores_test.ts",
      "What is the capital of Freedonia?",
      "freedonia.txt",
      `The capital of Freedonia is Fredville, says ${id}.`,
      { quoted: ["The capital of Freedonia is Fredville, says ${id}."] },
    )
  ),
  found(
    "server/providers/vectors/registry_test.ts",
    "What is the capital of Freedonia?",
    "freedonia.txt",
    "The capital of Freedonia is Fredville, on the Blue River.",
  ),
  found(
    "tests/browser/chat_widget_test.ts",
    "What does the small country of Freedonia export?",
    "freedonia.txt",
    FREEDONIA_EXPORTS,
  ),
  found(
    "tests/browser/path_test.ts",
    "What is the capital of Freedonia?",
    "freedonia.txt",
    FREEDONIA_EXPORTS,
  ),
  found(
    "tests/browser/connectors_test.ts",
    "When is the high tide in Fredville?",
    "src/tides.ts",
    "// The high tide in Fredville is at 06:12 on Mondays.\nexport const highTide = '06:12';",
  ),
  found(
    "tests/faults/full_disk_test.ts",
    "Where do herons wade?",
    "herons.txt",
    "Herons wade in shallow water to fish.",
  ),
  found("tests/server_process_test.ts", "Tell me about herons", "herons.txt", "Durable facts about herons."),
];
