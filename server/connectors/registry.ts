import type { ConnectorContext, ConnectorDocument, ConnectorSkip, ConnectorSource } from "./source.ts";
import { githubSource } from "./sources/github.ts";
import { gitlabSource } from "./sources/gitlab.ts";
import type { RepoHost } from "./sources/repo.ts";

/** The repository hosts of `/api/ext/:host/branches|repo`. */
export const REPO_HOSTS = { github: githubSource, gitlab: gitlabSource } as const satisfies Record<
  string,
  RepoHost
>;
export type RepoHostId = keyof typeof REPO_HOSTS;

/**
 * Every source by its id, for live sync's re-fetch. The other connectors (YouTube, website crawl, Confluence)
 * are added here with their routes.
 */
export const CONNECTOR_SOURCES: Record<string, ConnectorSource<never> & Partial<Pick<RepoHost, "refetch">>> =
  {
    ...REPO_HOSTS,
  };

/** A connector document again from its source (live sync), or null when its source cannot re-fetch one. */
export function refetchConnectorDocument(
  source: string,
  url: string,
  context: ConnectorContext,
): Promise<ConnectorDocument | ConnectorSkip> | null {
  const refetch = CONNECTOR_SOURCES[source]?.refetch;
  return refetch ? refetch(url, context) : null;
}
