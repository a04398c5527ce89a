// save-file-to-browser: a file the agent writes for the person, kept under the storage folder with an owner
// sidecar, and create-chart: a chart drawn in the chat from data.
import { join } from "node:path";
import { ChartSpec } from "../../../shared/api/agents.ts";
import type { Deps } from "../../deps.ts";
import type { AgentTool } from "../loop.ts";
import { type SkillContext, textArg } from "./context.ts";

/** The largest file the agent may save. */
export const MAX_AGENT_FILE_BYTES = 5 * 1024 * 1024;

/** Who may download a saved file, and how it is served. */
export interface AgentFileOwner {
  /** The owner's id; null on a single-user instance, where the one visitor is the owner. */
  userId: number | null;
  filename: string;
  mime: string;
  createdAt: string;
}

export const agentFilesDir = (deps: Deps) => join(deps.paths.root, "agent-files");

const MIMES: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/plain",
  xml: "text/plain",
  yaml: "text/plain",
  yml: "text/plain",
};

/** A file name without folders or odd characters, with an extension. */
export function safeFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop()!.replace(/[^\w.\- ]+/g, "_").replace(/^\.+/, "").trim().slice(0, 120);
  if (!base) throw new Error("The file name is empty.");
  return /\.[a-z0-9]{1,8}$/i.test(base) ? base : `${base}.txt`;
}

export async function saveAgentFile(
  deps: Deps,
  userId: number | null,
  filename: string,
  content: string,
): Promise<string> {
  const bytes = new TextEncoder().encode(content);
  if (bytes.length > MAX_AGENT_FILE_BYTES) throw new Error("The file is larger than 5 MB.");
  const id = crypto.randomUUID();
  const dir = agentFilesDir(deps);
  await Deno.mkdir(dir, { recursive: true });
  const extension = filename.split(".").pop()!.toLowerCase();
  const owner: AgentFileOwner = {
    userId,
    filename,
    mime: MIMES[extension] ?? "application/octet-stream",
    createdAt: new Date().toISOString(),
  };
  await Deno.writeFile(join(dir, `${id}.bin`), bytes);
  await Deno.writeTextFile(join(dir, `${id}.json`), JSON.stringify(owner));
  return id;
}

/** The file and its owner record, or null when there is none with this id. */
export async function readAgentFile(
  deps: Deps,
  id: string,
): Promise<{ owner: AgentFileOwner; bytes: Uint8Array } | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  try {
    const dir = agentFilesDir(deps);
    const owner = JSON.parse(await Deno.readTextFile(join(dir, `${id}.json`))) as AgentFileOwner;
    return { owner, bytes: await Deno.readFile(join(dir, `${id}.bin`)) };
  } catch {
    return null;
  }
}

export function saveFileTool(context: SkillContext): AgentTool {
  return {
    name: "save-file",
    description:
      "Saves text as a file the user can download (for example a .txt, .md, .csv or .json file). Returns its link.",
    parameters: {
      type: "object",
      properties: {
        filename: { type: "string", description: "The file name, with its extension." },
        content: { type: "string", description: "The whole content of the file." },
      },
      required: ["filename", "content"],
    },
    describe: (args) => `Saving the file ${String(args.filename ?? "")}.`,
    async run(args) {
      const filename = safeFilename(textArg(args, "filename"));
      const content = typeof args.content === "string" ? args.content : JSON.stringify(args.content ?? "");
      const id = await saveAgentFile(context.deps, context.actor.userId, filename, content);
      const link = `/api/agent-files/${id}`;
      return {
        text: `The file ${filename} was saved; the user sees a download link for it.`,
        attach: `[Download ${filename}](${link})`,
      };
    },
  };
}

export function chartTool(): AgentTool {
  return {
    name: "create-chart",
    description:
      "Draws a bar, line or pie chart from data in the chat. The user sees the chart under the answer.",
    parameters: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["bar", "line", "pie"] },
        title: { type: "string" },
        data: {
          type: "array",
          items: {
            type: "object",
            properties: { label: { type: "string" }, value: { type: "number" } },
            required: ["label", "value"],
          },
        },
      },
      required: ["type", "data"],
    },
    describe: (args) => `Drawing a ${String(args.type ?? "")} chart.`,
    run(args) {
      const parsed = ChartSpec.safeParse(args);
      if (!parsed.success) {
        return Promise.reject(
          new Error(`The chart data is not valid: ${parsed.error.issues[0]?.message ?? "unknown problem"}.`),
        );
      }
      return Promise.resolve({
        text: "The chart was drawn and is shown to the user; do not repeat the data as a table.",
        attach: "```chart\n" + JSON.stringify(parsed.data) + "\n```",
      });
    },
  };
}
