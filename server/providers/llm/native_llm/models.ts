import { join } from "node:path";
import { ProviderError } from "../../../errors.ts";

/** One choice of the model lookup, shaped as ModelInfo in ../models.ts (declared here so that file can import this). */
export interface NativeModelInfo {
  id: string;
  name: string;
}

/**
 * Where GGUF models for the built-in runner live: `STORAGE_DIR/models/downloaded/`, the folder the reference
 * server used, so a storage folder carried over from it keeps its models. `modelsDir` is
 * `storagePaths(...).models`.
 */
export function nativeModelsDirectory(modelsDir: string): string {
  return join(modelsDir, "downloaded");
}

/** A model id is the bare name of a .gguf file in that folder: no folder part, so it cannot point elsewhere. */
export function isNativeModelId(id: string): boolean {
  return /\.gguf$/i.test(id) && !/[/\\\0]/.test(id) && id !== "." && id !== ".." && !id.startsWith(".");
}

/** The .gguf files in `dir`, by name (the NativeLLMModelPref choices); none when the folder does not exist. */
export async function listNativeModels(dir: string): Promise<NativeModelInfo[]> {
  const models: NativeModelInfo[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!isNativeModelId(entry.name)) continue;
      // A symbolic link to a model kept elsewhere counts when it leads to a file.
      const info = entry.isFile ? entry : await Deno.stat(join(dir, entry.name)).catch(() => null);
      if (info?.isFile) models.push({ id: entry.name, name: entry.name });
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return [];
    throw error;
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

/** The path of model `id` in `dir`; throws a ProviderError naming what to do when it is not there. */
export async function nativeModelPath(dir: string, id: string): Promise<string> {
  if (!id) {
    throw new ProviderError("No local model is chosen: pick a .gguf file in Settings → LLM.");
  }
  if (!isNativeModelId(id)) {
    throw new ProviderError(`The local model "${id}" is not the name of a .gguf file in ${dir}.`);
  }
  const path = join(dir, id);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    throw new ProviderError(
      `The local model ${id} was not found in ${dir}: copy the .gguf file there, or choose another model in ` +
        "Settings → LLM.",
    );
  }
  if (!info.isFile || info.size === 0) {
    throw new ProviderError(`The local model ${id} in ${dir} is empty or not a file.`);
  }
  return path;
}
