import { NATIVE_EMBEDDING_MODELS, NATIVE_LEXICAL_MODEL } from "../../shared/providers/embedder_catalog.ts";

/** A native model as `custom-models` lists it for `{"provider":"native-embedder"}`. */
export interface NativeEmbedderModelInfo {
  id: string;
  name: string;
  description: string;
  lang: string;
  size: string;
  modelCard: string;
}

const DETAILS: Record<string, { description: string; lang: string; modelCard: string }> = {
  [NATIVE_LEXICAL_MODEL]: {
    description:
      "Built into Lectern and instant: matches passages by the words they share, not by meaning. Good enough to " +
      "start with; switch to a neural model for questions worded differently from the documents.",
    lang: "Any language written with spaces between words",
    modelCard: "",
  },
};

/** The built-in embedder's models, in the reference's shape; a neural one is downloaded when it is chosen. */
export function nativeEmbedderModels(): NativeEmbedderModelInfo[] {
  return NATIVE_EMBEDDING_MODELS.map((model) => {
    const details = DETAILS[model.id] ?? {
      description:
        "A small sentence-embedding model that runs inside Lectern: it matches passages by meaning.",
      lang: "English",
      modelCard: `https://huggingface.co/${model.id}`,
    };
    return {
      id: model.id,
      name: model.name,
      ...details,
      size: model.builtIn ? "Built in, no download" : `${model.downloadMb ?? "?"} MB download`,
    };
  });
}
