import * as z from "zod";
import { ConnectorImport, RepoImportData } from "../../../../shared/api/connectors.ts";
import { api } from "../../../lib/api.ts";

const Answer = z.object({ success: z.boolean(), reason: z.string().nullable(), data: z.unknown() });

/** A connector call's `data`; a failed call (`success: false`) throws its `reason`, the sentence to show. */
async function connectorCall<T>(path: string, schema: z.ZodType<T>, json?: unknown): Promise<T> {
  const answer = await api(path, { json, schema: Answer });
  if (!answer.success) throw new Error(answer.reason ?? "A processing error occurred.");
  return schema.parse(answer.data);
}

export function fetchBranches(
  host: string,
  input: { repo: string; accessToken?: string },
): Promise<string[]> {
  return connectorCall(`/ext/${host}/branches`, z.object({ branches: z.array(z.string()) }), input)
    .then((data) => data.branches);
}

/** Starts an import in the background: the answer comes at once with its progress. */
export async function startImport(path: string, body: Record<string, unknown>): Promise<ConnectorImport> {
  return (await startImportWithData(path, body)).import;
}

/** As `startImport`, with the answer's other fields (a video's title and author, a space's key). */
export async function startImportWithData(
  path: string,
  body: object,
): Promise<{ import: ConnectorImport; data: RepoImportData }> {
  const data = await connectorCall(path, RepoImportData, { ...body, background: true });
  if (!data.import) throw new Error("The server did not start the import.");
  return { import: data.import, data };
}

export function fetchImport(id: string, signal?: AbortSignal): Promise<ConnectorImport> {
  return connectorCall(
    `/ext/imports/${encodeURIComponent(id)}`,
    z.object({ import: ConnectorImport }),
    undefined,
  ).then((data) => data.import).catch((error) => {
    if (signal?.aborted) throw signal.reason;
    throw error;
  });
}

export function fetchImports(): Promise<ConnectorImport[]> {
  return connectorCall("/ext/imports", z.object({ imports: z.array(ConnectorImport) })).then((data) =>
    data.imports
  );
}
