import { fileURLToPath } from "node:url";
import { fromRoot } from "../app_root.ts";

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const CLIENT_ENTRY = "client/main.tsx";
export const ASSET_BASE = "/static/";

/** The built client: where dist/ is, and which files a page needs. */
export interface ClientAssets {
  readonly directory: string;
  /** Script, styles and preloads for a page that uses these islands. */
  forPage(islands: string[]): { script: string; styles: string[]; preloads: string[] };
  /** The module of one language's texts (client/locales/<code>.json), or null when it is not built. */
  localeScript?(code: string): string | null;
}

export function clientDirectory(): string {
  return fileURLToPath(fromRoot("dist/static"));
}

export function readManifest(directory: string): Manifest {
  try {
    return JSON.parse(Deno.readTextFileSync(`${directory}/.vite/manifest.json`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        `The client is not built: ${directory}/.vite/manifest.json is missing. Run "deno task build".`,
      );
    }
    throw error;
  }
}

/** Reads the Vite manifest once, or on every page in development (`vite build --watch` rewrites it). */
export function loadClientAssets(
  directory = clientDirectory(),
  options: { reload?: boolean } = {},
): ClientAssets {
  const cached: Manifest | null = options.reload ? null : readManifest(directory);
  const manifest = () => cached ?? readManifest(directory);
  return {
    directory,
    forPage(islands: string[]) {
      const chunks = manifest();
      const entry = chunks[CLIENT_ENTRY];
      if (!entry) throw new Error(`The client manifest has no entry ${CLIENT_ENTRY}`);
      const preloads = new Set<string>();
      const styles = new Set<string>(entry.css ?? []);
      const visit = (key: string) => {
        const chunk = chunks[key];
        if (!chunk || preloads.has(chunk.file)) return;
        preloads.add(chunk.file);
        chunk.css?.forEach((file) => styles.add(file));
        chunk.imports?.forEach(visit);
      };
      entry.imports?.forEach(visit);
      for (const island of islands) visit(`client/islands/${island}.tsx`);
      return {
        script: ASSET_BASE + entry.file,
        styles: [...styles].map((file) => ASSET_BASE + file),
        preloads: [...preloads].map((file) => ASSET_BASE + file),
      };
    },
    localeScript(code: string) {
      const chunk = manifest()[`client/locales/${code}.json`];
      return chunk ? ASSET_BASE + chunk.file : null;
    },
  };
}
