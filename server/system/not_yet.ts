import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";

/**
 * A call of the reference's web client that Lectern does not answer yet (a later feature brings it) or does not
 * offer at all. It answers 501 with a sentence the client can show, instead of the generic 404.
 */
export interface MissingCall {
  /** HTTP methods, or "ALL" for a whole family of calls. */
  methods: readonly string[] | "ALL";
  /** Paths under /api, in Hono's syntax (`:id`, `*`). */
  paths: readonly string[];
  sentence: string;
  /** The field the reference's client shows for this family, besides `error` and `message`. */
  field?: "reason";
}

const notYet = (what: string, comesWith?: string) =>
  `${what} ${comesWith ? `not available yet: ${comesWith}.` : "not available yet."}`;
const notOffered = (what: string) => `${what} not offered by Lectern.`;

/** The families, answered after the login check (and after the real routes, which win). */
export const MISSING_CALLS: readonly MissingCall[] = [
  {
    methods: "ALL",
    paths: ["/utils/dmr/*", "/utils/foundry/*", "/utils/lemonade/*"],
    // Reference vendors beyond spec 02 §3's 25 LLM providers.
    sentence: notOffered("Docker Model Runner, Foundry Local and Lemonade are"),
  },
  {
    methods: "ALL",
    // Beyond issue 22's agents: flows, approvals, the create-files skill's documents, and the skills that sign
    // in to Google or Microsoft accounts (the agent routes answer the skill checks the screen needs).
    paths: ["/agent-skills/*", "/agent-flows/*", "/admin/agent-skills/*"],
    sentence: notOffered(
      "Agent flows, skill approvals, generated office files and the Gmail, Google Calendar and Outlook skills are",
    ),
  },
  {
    methods: "ALL",
    paths: ["/ext/*"],
    sentence: notYet(
      "Data connectors other than GitHub, GitLab, YouTube, the website crawl and Confluence are",
    ),
    field: "reason",
  },
  {
    methods: "ALL",
    paths: ["/workspaces/:slug/memories", "/memories/*"],
    sentence: notOffered("Memories are"),
  },
  { methods: "ALL", paths: ["/mobile/*"], sentence: notOffered("The mobile app connection is") },
  {
    methods: "ALL",
    paths: ["/model-routers", "/model-routers/*"],
    sentence: notOffered("Model routers are"),
  },
  {
    methods: "ALL",
    paths: ["/scheduled-jobs", "/scheduled-jobs/*", "/web-push/*"],
    sentence: notOffered("Scheduled jobs and their notifications are"),
  },
  { methods: "ALL", paths: ["/telegram/*"], sentence: notOffered("The Telegram bot is") },
  { methods: "ALL", paths: ["/image-generation/*"], sentence: notOffered("Image generation is") },
  {
    methods: "ALL",
    paths: ["/experimental/agent-plugins/*"],
    sentence: notOffered("Imported agent plugins (they run code from elsewhere) are"),
  },
];

/** Routes that answer each missing call with 501 and its sentence. */
export function missingCallRoutes(calls: readonly MissingCall[]) {
  const app = new Hono<AppEnv>();
  for (const call of calls) {
    const body = {
      success: false,
      error: call.sentence,
      message: call.sentence,
      ...(call.field ? { [call.field]: call.sentence } : {}),
    };
    const answer = (c: { json: (body: unknown, status: 501) => Response }) => c.json(body, 501);
    for (const path of call.paths) {
      if (call.methods === "ALL") app.all(path, answer);
      else app.on([...call.methods], path, answer);
    }
  }
  return app;
}
