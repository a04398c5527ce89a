import { activeSkills } from "./settings.ts";
import type { AgentTool } from "./loop.ts";
import type { SkillContext } from "./skills/context.ts";
import { listTool, searchTool, summarizeTool } from "./skills/documents.ts";
import { scrapeTool, webSearchTool } from "./skills/web.ts";
import { chartTool, saveFileTool } from "./skills/files.ts";
import { sqlTool } from "./skills/sql.ts";

/** The tools of the skills that are on and configured, for this user and workspace. */
export async function builtInTools(context: SkillContext): Promise<AgentTool[]> {
  const tools: AgentTool[] = [];
  for (const skill of await activeSkills(context.deps)) {
    if (skill === "rag-memory") tools.push(searchTool(context));
    else if (skill === "document-summarizer") tools.push(listTool(context), summarizeTool(context));
    else if (skill === "web-scraping") tools.push(scrapeTool(context));
    else if (skill === "web-browsing") tools.push(webSearchTool(context));
    else if (skill === "save-file-to-browser") tools.push(saveFileTool(context));
    else if (skill === "create-chart") tools.push(chartTool());
    else if (skill === "sql-agent") tools.push(await sqlTool(context));
  }
  return tools;
}
