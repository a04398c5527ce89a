import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ModelOverride } from "./ModelOverride.tsx";
import { agentChanges, agentValuesOf } from "./tab_values.ts";
import type { TabProps } from "./types.ts";
import { WorkspaceForm } from "./WorkspaceForm.tsx";

/** The agent-config tab: the language model the workspace's agent uses (agentProvider, agentModel). */
export function AgentTab({ workspace, save, configuredProviders = null }: TabProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => agentValuesOf(workspace));

  async function submit() {
    const row = await save(agentChanges(values));
    if (row) setValues(agentValuesOf(row));
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
        configured={configuredProviders}
        provider={values.provider}
        model={values.model}
        onProvider={(provider) => setValues((current) => ({ ...current, provider }))}
        onModel={(model) => setValues((current) => ({ ...current, model }))}
      />
    </WorkspaceForm>
  );
}
