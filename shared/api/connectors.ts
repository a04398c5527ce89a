import * as z from "zod";

/**
 * The data connectors' calls (spec 02 §3 and §7): every answer is `{success, reason, data}`. A repository
 * host's payload is `repo, accessToken, branch, ignorePaths, fetchIssues` (GitLab adds `fetchWikis`).
 * `background: true` (Lectern's addition, sent by its own screen) starts the import and answers at once with
 * the import's progress; without it the call answers when the import has ended, as the reference's does.
 */
const optionalText = z.string().trim().nullish().transform((value) => value || undefined);

export const RepoBranchesInput = z.object({
  repo: z.string({ error: "repo is required." }).trim().min(1, { error: "repo is required." }),
  accessToken: optionalText,
});
export type RepoBranchesInput = z.infer<typeof RepoBranchesInput>;

export const RepoImportInput = RepoBranchesInput.extend({
  branch: optionalText,
  ignorePaths: z.array(z.string().trim().max(500)).max(500).nullish().transform((value) =>
    (value ?? []).filter(Boolean)
  ),
  fetchIssues: z.boolean().nullish().transform((value) => value ?? false),
  fetchWikis: z.boolean().nullish().transform((value) => value ?? false),
  background: z.boolean().optional(),
});
export type RepoImportInput = z.infer<typeof RepoImportInput>;

export const IMPORT_STATUSES = ["running", "done", "failed"] as const;

/** An import's progress, readable while it runs and for a while after it ended. */
export const ConnectorImport = z.object({
  id: z.string(),
  /** The route's name: `github`, `gitlab`, `youtube`, `website-depth`, `confluence`. */
  source: z.string(),
  /** What the person imported, e.g. `owner/repo:main` (never a token). */
  label: z.string(),
  folder: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** Files or pages found so far, those stored or left unchanged, and those skipped (binary, too large, ignored). */
  found: z.number(),
  done: z.number(),
  skipped: z.number(),
  /** On a second import: documents changed, added, unchanged and removed (gone from the source). */
  added: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  removed: z.number(),
  /** The failure's sentence, when `status` is `failed`. */
  reason: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /**
   * What the reference's toast at the end names besides the counts (a video's `title` and `author`, a space's
   * `spaceKey`, a repository's `author`, `repo` and `branch`): kept with the import, so a page reloaded while it
   * runs still shows that toast. Never a token.
   */
  details: z.record(z.string(), z.string()).optional(),
});
export type ConnectorImport = z.infer<typeof ConnectorImport>;

/** `data` of a finished repository import, as the reference answers it (plus the import's progress). */
export const RepoImportData = z.looseObject({
  author: z.string().optional(),
  repo: z.string().optional(),
  branch: z.string().optional(),
  files: z.number().optional(),
  destination: z.string().optional(),
  import: ConnectorImport.optional(),
});
export type RepoImportData = z.infer<typeof RepoImportData>;

export const ConnectorAnswer = z.object({
  success: z.boolean(),
  reason: z.string().nullable(),
  data: z.unknown(),
});
