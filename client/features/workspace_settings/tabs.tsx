import type { TFunction } from "i18next";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import type { WorkspaceSettingsTab } from "../../../shared/routes.ts";
import type { Detail } from "../../components/DetailList.tsx";
import { formatDate } from "../dates.ts";
import { MembersPanel } from "./MembersPanel.tsx";

/** Spec 01 §5: the similarity threshold options and the value each starts at. */
const THRESHOLDS = [
  { min: 0.75, key: "high" },
  { min: 0.5, key: "medium" },
  { min: 0.25, key: "low" },
] as const;
/** The temperature a workspace without its own uses. */
const DEFAULT_TEMPERATURE = 0.7;

function thresholdKey(value: number): string {
  return THRESHOLDS.find((threshold) => value >= threshold.min)?.key ?? "none";
}

/** What a tab shows: the workspace's current values, read-only. */
export function tabDetails(
  tab: WorkspaceSettingsTab,
  workspace: WorkspaceDetail,
  multiUserMode: boolean | null,
  t: TFunction,
): Detail[] {
  const k = (key: string, options?: Record<string, unknown>) => t(`workspaceSettings.${key}`, options ?? {});
  switch (tab) {
    case "general-appearance":
      return [
        { label: k("general.name"), value: workspace.name },
        { label: k("general.slug"), value: <code>{workspace.slug}</code>, hint: k("general.slugHint") },
        { label: k("general.created"), value: formatDate(workspace.createdAt) },
      ];
    case "chat-settings": {
      const mode = workspace.chatMode === "query" ? "query" : "chat";
      return [
        {
          label: k("chat.mode"),
          value: (
            <>
              <strong>{k(`chat.modes.${mode}.label`)}</strong>
              <ul className="detail-options">
                {(["chat", "query"] as const).map((name) => (
                  <li key={name} className={name === mode ? "current" : undefined}>
                    <span className="detail-option-name">{k(`chat.modes.${name}.label`)}</span>
                    {": "}
                    {k(`chat.modes.${name}.meaning`)}
                  </li>
                ))}
              </ul>
            </>
          ),
        },
        { label: k("chat.history"), value: workspace.openAiHistory, hint: k("chat.historyHint") },
        {
          label: k("chat.prompt"),
          value: <p className="detail-text">{workspace.openAiPrompt ?? k("chat.defaultPrompt")}</p>,
        },
        {
          label: k("chat.refusal"),
          value: <p className="detail-text">{workspace.queryRefusalResponse ?? k("chat.defaultRefusal")}</p>,
          hint: k("chat.refusalHint"),
        },
        {
          label: k("chat.temperature"),
          value: workspace.openAiTemp ?? k("chat.defaultTemperature", { value: DEFAULT_TEMPERATURE }),
          hint: k("chat.temperatureHint"),
        },
      ];
    }
    case "vector-database":
      return [
        { label: k("vector.topN"), value: workspace.topN, hint: k("vector.topNHint") },
        {
          label: k("vector.threshold"),
          value: k(`vector.thresholds.${thresholdKey(workspace.similarityThreshold)}`),
          hint: k("vector.thresholdHint"),
        },
        { label: k("vector.documents"), value: workspace.documents.length },
      ];
    case "members": {
      const access = {
        label: k("members.access"),
        value: multiUserMode === null
          ? t("common.loading")
          : multiUserMode
          ? k("members.multiUser")
          : k("members.singleUser"),
      };
      if (!multiUserMode) return [access];
      return [access, { label: k("members.list"), value: <MembersPanel workspaceId={workspace.id} /> }];
    }
    case "agent-config":
      return [
        { label: k("agent.provider"), value: workspace.agentProvider ?? k("agent.instanceLlm") },
        { label: k("agent.model"), value: workspace.agentModel ?? k("agent.instanceModel") },
      ];
  }
}
