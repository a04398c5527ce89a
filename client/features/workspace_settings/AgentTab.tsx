import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Workspace } from "../../../shared/api/workspaces.ts";
import { INSTANCE_LLM, ModelOverride } from "./ModelOverride.tsx";
import { orNull, type TabProps } from "./types.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

function valuesOf(workspace: Workspace) {
  return { provider: workspace.agentProvider ?? INSTANCE_LLM, model: workspace.agentModel ?? "" };
}

/** The agent-config tab: the language model the workspace's agent uses (agentProvider, agentModel). */
export function AgentTab({ workspace, save }: TabProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => valuesOf(workspace));

  async function submit() {
    const usesInstance = values.provider === INSTANCE_LLM;
    // The instance's LLM is stored as no provider and no model.
    const row = await save({
      agentProvider: values.provider,
      agentModel: usesInstance ? null : orNull(values.model.trim()),
    });
    if (row) setValues(valuesOf(row));
  }

  return (
    <WorkspaceForm
      id="ws-agent"
      title={t("workspaceSettings.agent.title")}
      description={t("workspaceSettings.agent.description")}
      save={submit}
    >
      <ModelOverride
        id="ws-agent"
        namespace="agent"
        saved={workspace.agentProvider}
        provider={values.provider}
        model={values.model}
        onProvider={(provider) => setValues((current) => ({ ...current, provider }))}
        onModel={(model) => setValues((current) => ({ ...current, model }))}
      />
    </WorkspaceForm>
  );
}
