// What the server's start and stop need of the data connectors without loading them (server/boot.ts): the
// staging folder an interrupted import leaves behind, and the running imports once the connectors have loaded
// (on the first request to /api/ext, server/app.ts).

/** The folder under the storage root where imports stage their files (connectors/import.ts). */
export const STAGING_FOLDER = ".connector-imports";

/** Set by connectors/import.ts when it loads: stops the running imports of a server's deps. */
export const loadedImports: { stopAll: ((deps: object) => Promise<void>) | null } = { stopAll: null };
