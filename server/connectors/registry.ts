import type { Config } from "../config.ts";
import type { ConnectorContext, ConnectorDocument, ConnectorSkip, ConnectorSource } from "./source.ts";
import { confluenceSource } from "./sources/confluence.ts";
import { githubSource } from "./sources/github.ts";
import { gitlabSource } from "./sources/gitlab.ts";
import type { RepoHost } from "./sources/repo.ts";
import { createWebsiteSource } from "./sources/website.ts";
import { youtubeSource } from "./sources/youtube.ts";

/** The repository hosts of `/api/ext/:host/branches|repo`. */
export const REPO_HOSTS = { github: githubSource, gitlab: gitlabSource } as const satisfies Record<
  string,
  RepoHost
>;
export type RepoHostId = keyof typeof REPO_HOSTS;

type AnySource = ConnectorSource<never> & Partial<Pick<RepoHost, "refetch">>;

/** Every source by its id (the import's `source`), for live sync's re-fetch. */
export const CONNECTOR_SOURCES: Record<string, AnySource> = {
  ...REPO_HOSTS,
  youtube: youtubeSource,
  confluence: confluenceSource,
  // The website crawl needs the server's configuration: see `connectorSources`. It has no re-fetch.
};

/** The sources of the routes: the repository hosts, YouTube, the website crawl (with `config`'s limits), Confluence. */
export function connectorSources(config: Config) {
  return {
    ...REPO_HOSTS,
    youtube: youtubeSource,
    website: createWebsiteSource({ config }),
    confluence: confluenceSource,
  } as const;
}

/** A connector document again from its source (live sync), or null when its source cannot re-fetch one. */
export function refetchConnectorDocument(
  source: string,
  url: string,
  context: ConnectorContext,
): Promise<ConnectorDocument | ConnectorSkip> | null {
  const refetch = CONNECTOR_SOURCES[source]?.refetch;
  return refetch ? refetch(url, context) : null;
}
