import type { ComponentType } from "react";
import type { ConnectorFormProps } from "./forms/RepoForm.tsx";
import { GithubForm } from "./forms/GithubForm.tsx";
import { GitlabForm } from "./forms/GitlabForm.tsx";
import { ConfluenceConnector, WebsiteConnector, YouTubeConnector } from "./forms/SourceForms.tsx";

export type { ConnectorFormProps };

/**
 * The "Data connectors" tab's list: each connector's id, its i18n keys (`connectors.<id>.name` and
 * `.description`) and its form.
 */
export const CONNECTOR_FORMS: { id: string; Form: ComponentType<ConnectorFormProps> }[] = [
  { id: "github", Form: GithubForm },
  { id: "gitlab", Form: GitlabForm },
  { id: "youtube", Form: YouTubeConnector },
  { id: "website", Form: WebsiteConnector },
  { id: "confluence", Form: ConfluenceConnector },
];
