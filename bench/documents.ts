// Document store benchmark: 10,000 documents (index rows plus small JSON files, written directly, no parsing)
// served by a real server process.
// 1. GET /api/system/local-files: folder shells, pages of 100 at the start, the middle and the end, a page of
//    1000, a title search inside the folder and one across folders (p50/p95 over many requests);
// 2. the document manager in Chromium: from the click on "Documents" to the first library row, and from a
//    jump to the end of the list to its last row, with the number of rows actually in the DOM.
import { join } from "node:path";
import { workspaceDocuments } from "../db/schema.ts";
import { createTestApp, genericOpenAiSettings } from "../server/testing/test_app.ts";
import { startServerProcess } from "../server/testing/process.ts";
import { seedDocuments } from "../server/documents/library_fixtures.ts";
import { CHROMIUM, hydrated, launchChromium } from "../tests/browser/chromium.ts";

const DOCUMENTS = Number(Deno.env.get("BENCH_DOCUMENTS") ?? 10_000);
const IN_WORKSPACE = Number(Deno.env.get("BENCH_IN_WORKSPACE") ?? 1_000);
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 200);
const UI_RUNS = Number(Deno.env.get("BENCH_UI_RUNS") ?? 7);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const TOPICS = ["harbour", "orchard", "lantern", "granite", "violin", "meadow", "copper", "signal", "heron"];

const storage = await Deno.makeTempDir({ prefix: "lectern-bench-documents-" });
try {
  // Seed through the app's own database layer, then close it and serve the folder from a real process.
  const seedStarted = performance.now();
  {
    await using app = await createTestApp({ storageDir: storage });
    await app.json("/api/system/update-env", { json: genericOpenAiSettings("http://127.0.0.1:9/v1") });
    const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
      json: { name: "Bench" },
    });
    const workspaceId = created.body.workspace.id;
    const entries = Array.from({ length: DOCUMENTS }, (_, index) => ({
      title: `${TOPICS[index % TOPICS.length]} report ${String(index).padStart(5, "0")}.txt`,
      text: `Report ${index} about the ${TOPICS[index % TOPICS.length]}. `.repeat(4),
    }));
    const seeded = [];
    for (let start = 0; start < entries.length; start += 1000) {
      seeded.push(...await seedDocuments(app.deps, entries.slice(start, start + 1000)));
    }
    await seedDocuments(app.deps, [{ title: "Ärger im Hafen.txt", folder: "archive" }]);
    // Rows as update-embeddings leaves them (the listing only reads the rows, not the vectors).
    const rows = seeded.slice(0, IN_WORKSPACE).map((document, index) => ({
      docId: crypto.randomUUID(),
      filename: document.location.split("/")[1],
      docpath: document.location,
      workspaceId,
      pinned: index % 100 === 0,
      metadata: JSON.stringify({ title: entries[index].title, wordCount: 24, token_count_estimate: 40 }),
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await app.deps.db.insert(workspaceDocuments).values(rows.slice(start, start + 500));
    }
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  let files = 0;
  for await (const _ of Deno.readDir(join(storage, "documents", "custom-documents"))) files++;

  await using server = await startServerProcess({ STORAGE_DIR: storage, LOG_LEVEL: "warn" });
  const timed = async (path: string) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api${path}`);
    const body = await response.json();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return { elapsed, body };
  };
  const measure = async (label: string, path: (run: number) => string) => {
    await timed(path(0));
    const times: number[] = [];
    let body: Record<string, unknown> = {};
    for (let run = 0; run < RUNS; run++) {
      const result = await timed(path(run));
      times.push(result.elapsed);
      body = result.body;
    }
    return { label, p50: percentile(times, 50), p95: percentile(times, 95), body };
  };

  const folder = "folder=custom-documents";
  const results = [
    await measure("folder shells", () => "/system/local-files"),
    await measure("page 1 (100)", () => `/system/local-files?${folder}&offset=0&limit=100`),
    await measure("page 50 (100)", () => `/system/local-files?${folder}&offset=${DOCUMENTS / 2}&limit=100`),
    await measure(
      "last page (100)",
      () => `/system/local-files?${folder}&offset=${DOCUMENTS - 100}&limit=100`,
    ),
    await measure("random pages (100)", () => {
      const offset = Math.floor(Math.random() * (DOCUMENTS / 100)) * 100;
      return `/system/local-files?${folder}&offset=${offset}&limit=100`;
    }),
    await measure("page of 1000", () => `/system/local-files?${folder}&offset=0&limit=1000`),
    await measure("search in folder", (run) => `/system/local-files?${folder}&q=REPORT%200${run % 10}`),
    await measure(
      "search all folders",
      (run) => `/system/local-files/search?q=${TOPICS[run % TOPICS.length]}`,
    ),
    await measure("search, non-ASCII", () => `/system/local-files/search?q=%C3%A4rger`),
  ];

  let ui: { open: number[]; end: number[]; rows: number } | null = null;
  try {
    await Deno.stat(CHROMIUM);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(`${server.url}/workspace/bench`);
      await hydrated(page);
      const toggle = page.getByRole("button", { name: /^Documents \(/ });
      await toggle.waitFor();
      const firstTitle = `${TOPICS[(DOCUMENTS - 1) % TOPICS.length]} report ${
        String(DOCUMENTS - 1).padStart(5, "0")
      }`;
      const lastTitle = `${TOPICS[0]} report 00000`;
      const open: number[] = [];
      const end: number[] = [];
      let rows = 0;
      for (let run = 0; run < UI_RUNS; run++) {
        const started = performance.now();
        await toggle.click();
        await page.locator(".library-list").getByText(firstTitle).waitFor();
        open.push(performance.now() - started);
        const jumped = performance.now();
        await page.locator(".doc-library .vlist").evaluate((element) => {
          element.scrollTop = element.scrollHeight;
        });
        await page.locator(".library-list").getByText(lastTitle).waitFor();
        end.push(performance.now() - jumped);
        rows = await page.locator(".library-list > li").count();
        await page.getByRole("button", { name: "Close the documents" }).click();
        await page.locator(".doc-manager").waitFor({ state: "detached" });
      }
      ui = { open, end, rows };
    } finally {
      await browser.close();
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    console.warn(`No Chromium at ${CHROMIUM}: the UI figures are skipped.`);
  }

  console.log(
    `\nDocument store benchmark (${DOCUMENTS} documents in one folder, ${IN_WORKSPACE} in the workspace)`,
  );
  console.log(`Seeded ${DOCUMENTS + 1} index rows and ${files} JSON files in ${seedSeconds.toFixed(1)} s.`);
  console.log(`\nAPI over HTTP, ${RUNS} requests each (one warm-up first):`);
  console.log(`${"call".padEnd(22)} ${"p50".padStart(10)} ${"p95".padStart(10)}  answer`);
  for (const result of results) {
    const body = result.body as { documents?: unknown[]; results?: unknown[]; totalCount?: number };
    const answer = body.documents
      ? `${body.documents.length} of ${body.totalCount}`
      : body.results
      ? `${body.results.length} of ${body.totalCount}`
      : "folders";
    console.log(
      `${result.label.padEnd(22)} ${ms(result.p50).padStart(10)} ${ms(result.p95).padStart(10)}  ${answer}`,
    );
  }
  if (ui) {
    console.log(`\nDocument manager in Chromium, ${UI_RUNS} runs:`);
    console.log(
      `  click → first library row: p50 ${ms(percentile(ui.open, 50))}, max ${ms(Math.max(...ui.open))}`,
    );
    console.log(
      `  jump to the end → last row: p50 ${ms(percentile(ui.end, 50))}, max ${ms(Math.max(...ui.end))}`,
    );
    console.log(`  rows in the DOM: ${ui.rows} of ${DOCUMENTS}`);
  }
} finally {
  await Deno.remove(storage, { recursive: true }).catch(() => {});
}
