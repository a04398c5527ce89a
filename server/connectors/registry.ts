import type { Config } from "../config.ts";
import type {
  ConnectorContext,
  ConnectorDocument,
  ConnectorSkip,
  ConnectorSource,
  RefetchInput,
} from "./source.ts";
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

/** The sources of the routes: the repository hosts, YouTube, the website crawl (with `config`'s limits), Confluence. */
export function connectorSources(config: Config) {
  return {
    ...REPO_HOSTS,
    youtube: youtubeSource,
    website: createWebsiteSource({ config }),
    confluence: confluenceSource,
  } as const;
}

/**
 * A connector document again from its source (live sync), by the source's id (the import's `source`, the
 * index row's `connector.source`), or null when no source of that id can fetch one again.
 */
export function refetchConnectorDocument(
  source: string,
  input: RefetchInput,
  context: ConnectorContext,
  config: Config,
): Promise<ConnectorDocument | ConnectorSkip> | null {
  const found = Object.values(connectorSources(config)).find((candidate) => candidate.id === source) as
    | ConnectorSource<never>
    | undefined;
  return found?.refetch ? found.refetch(input, context) : null;
}
