/**
 * Text some open models expect before a passage or a query: they were trained with these markers and rank
 * noticeably worse without them (the reference prefixes nomic and e5; mxbai and bge mark only queries).
 */
export interface ModelPrefixes {
  passage: string;
  query: string;
}

const NONE: ModelPrefixes = { passage: "", query: "" };
const RETRIEVAL_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

export function prefixesFor(modelId: string): ModelPrefixes {
  const model = modelId.toLowerCase();
  if (model.includes("nomic-embed-text")) return { passage: "search_document: ", query: "search_query: " };
  if (/(^|[/:_-])(multilingual-)?e5-/.test(model)) return { passage: "passage: ", query: "query: " };
  if (model.includes("mxbai-embed-large") || /(^|[/:])bge-(small|base|large)-en/.test(model)) {
    return { passage: "", query: RETRIEVAL_INSTRUCTION };
  }
  return NONE;
}
