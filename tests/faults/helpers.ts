import assert from "node:assert/strict";
import { createClient } from "@libsql/client";

/** A loopback port nothing listens on (bound, then released). */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export async function postJson(url: string, body: unknown, method = "POST") {
  const response = await fetch(url, { method, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  // deno-lint-ignore no-explicit-any
  return { status: response.status, body: parsed as any };
}

// deno-lint-ignore no-explicit-any
export async function getJson(url: string): Promise<any> {
  const response = await fetch(url);
  assert.equal(response.status, 200, `GET ${url}`);
  return await response.json();
}

export async function uploadTo(base: string, slug: string, route: "upload" | "upload-and-embed", file: File) {
  const form = new FormData();
  form.append("file", file);
  const response = await fetch(`${base}/api/workspace/${slug}/${route}`, { method: "POST", body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  // deno-lint-ignore no-explicit-any
  return { status: response.status, body: body as any };
}

/** Every document of the library's default folder, as GET /api/system/local-files lists them. */
export async function libraryDocuments(base: string): Promise<{ title: string; location: string }[]> {
  const listed = await getJson(`${base}/api/system/local-files?folder=custom-documents&limit=500`);
  return listed.documents;
}

/** `PRAGMA integrity_check` and the foreign keys of the database file, read after the server stopped. */
export async function checkDatabaseFile(path: string): Promise<void> {
  const client = createClient({ url: `file:${path}` });
  try {
    const integrity = await client.execute("PRAGMA integrity_check");
    assert.deepEqual(integrity.rows.map((row) => row[0]), ["ok"]);
    const foreign = await client.execute("PRAGMA foreign_key_check");
    assert.equal(foreign.rows.length, 0, `foreign keys broken: ${JSON.stringify(foreign.rows)}`);
  } finally {
    client.close();
  }
}

/** Rows of one query on the database file (the server stopped). */
export async function queryDatabaseFile(path: string, sql: string) {
  const client = createClient({ url: `file:${path}` });
  try {
    return (await client.execute(sql)).rows;
  } finally {
    client.close();
  }
}
