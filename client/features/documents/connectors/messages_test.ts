import assert from "node:assert/strict";
import type { ConnectorImport } from "../../../../shared/api/connectors.ts";
import { t } from "../../../lib/i18n.ts";
import { importDoneMessage } from "./messages.ts";

/** An ended import as `GET /api/ext/imports/:id` answers it after a reload (nothing of the form's answer kept). */
function ended(
  source: string,
  label: string,
  folder: string,
  done: number,
  details?: Record<string, string>,
) {
  return {
    id: crypto.randomUUID(),
    source,
    label,
    folder,
    status: "done",
    found: done,
    done,
    skipped: 0,
    added: done,
    updated: 0,
    unchanged: 0,
    removed: 0,
    reason: null,
    startedAt: "2026-11-25T23:00:00.000Z",
    finishedAt: "2026-11-25T23:01:00.000Z",
    ...(details ? { details } : {}),
  } satisfies ConnectorImport;
}

Deno.test("an import's end toasts the reference's text of its connector, from the import alone", () => {
  assert.equal(
    importDoneMessage(
      t,
      ended("youtube", "How tides work", "youtube-transcripts", 1, {
        title: "How tides work",
        author: "Harbour Channel",
      }),
    ),
    "How tides work by Harbour Channel transcription completed. Output folder is youtube-transcripts.",
  );
  assert.equal(
    importDoneMessage(
      t,
      ended("confluence", "DOCS (harbour.atlassian.net)", "confluence-harbour-atlassian-net-docs", 2, {
        spaceKey: "DOCS",
      }),
    ),
    "Pages collected from Confluence space DOCS. Output folder is confluence-harbour-atlassian-net-docs.",
  );
  assert.equal(
    importDoneMessage(t, ended("website-depth", "https://docs.example.test/", "docs-example-test", 2)),
    "Successfully scraped 2 pages!",
  );
  assert.equal(
    importDoneMessage(
      t,
      ended("github", "octo/tides:main", "octo-tides-main", 1, {
        author: "octo",
        repo: "tides",
        branch: "main",
      }),
    ),
    "1 file collected from octo/tides:main. Output folder is octo-tides-main.",
  );
});
