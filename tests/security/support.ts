import assert from "node:assert/strict";
import type { TestApp } from "../../server/testing/test_app.ts";
import { bearer, type Session } from "../../server/testing/accounts.ts";

/** The client address a request stands for (Deno.serve's info, as app.request takes it). */
export const from = (hostname: string) => ({ remoteAddr: { hostname, port: 40000, transport: "tcp" } });

/** Headers of a session, or none for an open single-user instance. */
export const auth = (session?: Session): Record<string, string> =>
  session ? bearer(session.token).headers : {};

/** A JSON request with optional session headers and extra headers. */
/** The server still answers (after an attack it should have survived). */
export async function stillAnswers(app: TestApp) {
  const ping = await app.json("/api/ping");
  assert.equal(ping.status, 200);
  assert.deepEqual(ping.body, { online: true });
}

/** Creates a workspace and returns its slug. */
export async function newWorkspace(app: TestApp, name: string, session?: Session): Promise<string> {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    headers: auth(session),
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace.slug;
}

/** Uploads one file through the API. */
export async function upload(
  app: TestApp,
  slug: string,
  name: string,
  content: string | Uint8Array,
  options: { session?: Session; fields?: Record<string, string> } = {},
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(options.fields ?? {})) form.append(key, value);
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  return await app.json<
    { success: boolean; error: string | null; documents?: { location: string; title: string }[] }
  >(
    `/api/workspace/${slug}/upload`,
    { method: "POST", body: form, headers: auth(options.session) },
  );
}

/** A multipart body written by hand, so a file name can hold what FormData would escape (CR, LF, quotes). */
export function rawMultipart(filenameParameter: string, content: string, extra = "") {
  const boundary = "----lectern-security-boundary";
  const body = `--${boundary}\r\n` + extra +
    `Content-Disposition: form-data; name="file"; filename=${filenameParameter}\r\n` +
    `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Everything the database holds on disk (the file and its write-ahead log), as Latin-1 text to search. */
export async function databaseBytes(app: TestApp): Promise<string> {
  let text = "";
  for (const suffix of ["", "-wal"]) {
    try {
      text += new TextDecoder("latin1").decode(await Deno.readFile(`${app.storageDir}/lectern.db${suffix}`));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return text;
}
