import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { LABELS } from "../settings/service.ts";
import { chunkSettings, DEFAULT_CHUNK_OVERLAP, splitterProblems } from "../documents/chunker.ts";
import { VectorCache } from "../documents/vector_cache.ts";
import type { TextSplitterPreferences } from "../../shared/api/embedding.ts";
import { logSettingsChanged } from "../events/log.ts";
import type { SystemPreferences } from "../../shared/api/appearance.ts";
import { saveAppearancePreferences } from "../appearance/service.ts";

/** The largest chunk the embedder the settings name takes (the one documents will be embedded with). */
export function configuredMaximum(deps: Deps): number {
  for (const embedder of [() => deps.providers.targetEmbedder(), () => deps.providers.embedder()]) {
    try {
      const found = embedder();
      if (found) return found.maxChunkLength;
    } catch {
      // Try the next one.
    }
  }
  return 1000;
}

/**
 * Saves the text splitter preferences (`POST /api/admin/system-preferences`, `POST /api/v1/admin/preferences`):
 * a label left out keeps its stored value; the pair must fit the embedder's maximum. A change purges the vector
 * cache, whose chunks were cut with the old sizes (docs/api-compat.md#storage-layout).
 */
async function saveTextSplitterPreferences(deps: Deps, input: TextSplitterPreferences): Promise<string[]> {
  const maximum = configuredMaximum(deps);
  const stored = (label: string) => {
    const value = Number(deps.settings.label(label));
    return deps.settings.label(label) !== undefined && Number.isFinite(value) ? value : undefined;
  };
  const before = chunkSettings(deps.settings, maximum);
  const next = {
    chunkSize: input.text_splitter_chunk_size ?? stored(LABELS.textSplitterChunkSize) ?? maximum,
    chunkOverlap: input.text_splitter_chunk_overlap ?? stored(LABELS.textSplitterChunkOverlap) ??
      DEFAULT_CHUNK_OVERLAP,
  };
  const problems = splitterProblems(next, maximum);
  if (problems.length > 0) fail("invalid_input", problems.join("\n"));
  const changed = await deps.settings.setLabels({
    [LABELS.textSplitterChunkSize]: String(next.chunkSize),
    [LABELS.textSplitterChunkOverlap]: String(next.chunkOverlap),
  });
  if (before.chunkSize !== next.chunkSize || before.chunkOverlap !== next.chunkOverlap) {
    const removed = await new VectorCache(deps.paths.vectorCache).purge();
    deps.log.info("Text splitter changed; vector cache purged", { ...next, removed });
  }
  return changed;
}

/**
 * Saves `POST /api/admin/system-preferences` and `POST /api/v1/admin/preferences` (one schema,
 * shared/api/appearance.ts `SystemPreferences`): the text splitter when either of its labels is sent, then the
 * appearance labels. Records `settings_updated` with the labels that changed (never their values) and returns
 * them.
 */
export async function saveSystemPreferences(
  deps: Deps,
  input: SystemPreferences,
  userId: number | null,
): Promise<string[]> {
  const changed: string[] = [];
  const { text_splitter_chunk_size, text_splitter_chunk_overlap } = input;
  if (text_splitter_chunk_size !== undefined || text_splitter_chunk_overlap !== undefined) {
    changed.push(
      ...await saveTextSplitterPreferences(deps, { text_splitter_chunk_size, text_splitter_chunk_overlap }),
    );
  }
  changed.push(...await saveAppearancePreferences(deps, input));
  await logSettingsChanged(deps, changed, userId);
  return changed;
}
