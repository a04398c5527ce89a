// The document skills: search a workspace's documents (rag-memory), list and summarize them (document-summarizer).
import { asc, eq } from "drizzle-orm";
import { workspaceDocuments } from "../../../db/schema.ts";
import { retrieve } from "../../chat/retrieve.ts";
import { findWorkspace } from "../../workspaces/service.ts";
import type { WorkspaceRow } from "../../workspaces/present.ts";
import type { AgentTool } from "../loop.ts";
import { type SkillContext, textArg } from "./context.ts";

/** The workspace a tool names (by slug), if this user may see it; this workspace without one. */
async function workspaceFor(context: SkillContext, args: Record<string, unknown>): Promise<WorkspaceRow> {
  const slug = textArg(args, "workspace", false);
  if (!slug || slug === context.workspace.slug) return context.workspace;
  const found = await findWorkspace(context.deps, context.actor, slug);
  // The same answer for a workspace that does not exist and one the user is not a member of.
  if (!found) throw new Error(`There is no workspace "${slug}" that you can use.`);
  return found;
}

const workspaceParameter = {
  type: "string",
  description: "The slug of the workspace to use; leave it out for the current workspace.",
};

export function searchTool(context: SkillContext): AgentTool {
  return {
    name: "search-documents",
    description:
      "Searches the documents of the workspace for passages relevant to a query. Returns numbered passages; cite them.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for." },
        workspace: workspaceParameter,
      },
      required: ["query"],
    },
    describe: (args) => `Searching the documents for "${String(args.query ?? "")}".`,
    async run(args, signal) {
      const query = textArg(args, "query");
      const workspace = await workspaceFor(context, args);
      const found = await retrieve(
        context.deps,
        workspace,
        context.deps.providers.embedder(),
        query,
        [],
        signal,
        { contextWindow: context.model.contextWindow },
      );
      if (found.sources.length === 0) return { text: "No relevant passages were found." };
      const text = found.sources.map((source, index) =>
        `[${index + 1}] ${source.title ?? "Untitled"}\n${source.text}`
      ).join("\n\n");
      return { text, sources: found.sources };
    },
  };
}

async function documentsOf(context: SkillContext, workspace: WorkspaceRow) {
  return await context.deps.db.select({
    docpath: workspaceDocuments.docpath,
    filename: workspaceDocuments.filename,
  })
    .from(workspaceDocuments).where(eq(workspaceDocuments.workspaceId, workspace.id))
    .orderBy(asc(workspaceDocuments.id));
}

export function listTool(context: SkillContext): AgentTool {
  return {
    name: "list-documents",
    description: "Lists the documents of the workspace, with their titles and word counts.",
    parameters: { type: "object", properties: { workspace: workspaceParameter } },
    describe: () => "Listing the workspace's documents.",
    async run(args) {
      const workspace = await workspaceFor(context, args);
      const rows = await documentsOf(context, workspace);
      if (rows.length === 0) return "The workspace has no documents.";
      const lines = [];
      for (const row of rows) {
        const document = await context.deps.documents.read(row.docpath).catch(() => null);
        lines.push(
          document ? `- ${document.title} (${document.wordCount} words)` : `- ${row.filename} (unreadable)`,
        );
      }
      return lines.join("\n");
    },
  };
}

/** The most characters of a document the summary reads. */
const SUMMARY_INPUT_CHARS = 24_000;

export function summarizeTool(context: SkillContext): AgentTool {
  return {
    name: "summarize-document",
    description: "Summarizes one document of the workspace, named by its title as list-documents gives it.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string", description: "The document's title." },
        workspace: workspaceParameter,
      },
      required: ["title"],
    },
    describe: (args) => `Summarizing ${String(args.title ?? "a document")}.`,
    async run(args, signal) {
      const title = textArg(args, "title");
      const workspace = await workspaceFor(context, args);
      const rows = await documentsOf(context, workspace);
      for (const row of rows) {
        const document = await context.deps.documents.read(row.docpath).catch(() => null);
        if (!document) continue;
        if (document.title !== title && row.filename !== title) continue;
        let summary = "";
        for await (
          const part of context.model.stream({
            messages: [
              {
                role: "system",
                content:
                  "Summarize the following document in a few short paragraphs. Keep names and figures.",
              },
              { role: "user", content: document.pageContent.slice(0, SUMMARY_INPUT_CHARS) },
            ],
          }, signal)
        ) {
          if (part.type === "text-delta") summary += part.text;
        }
        return {
          text: summary,
          sources: [{
            id: document.id,
            title: document.title,
            url: document.url,
            docSource: document.docSource,
            chunkSource: document.chunkSource,
            published: document.published,
            text: document.pageContent.slice(0, 1000),
          }],
        };
      }
      throw new Error(`The workspace has no document titled "${title}".`);
    },
  };
}
