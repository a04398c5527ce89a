import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { SearchInput } from "../../shared/api/search.ts";
import { searchNames } from "./service.ts";

/** The sidebar's search (`POST /api/workspace/search`), for every role. */
export function searchRoutes(deps: Deps) {
  return new Hono<AppEnv>().post("/workspace/search", async (c) => {
    const { searchTerm } = await parseJson(c, SearchInput);
    return c.json(await searchNames(deps, c.var.actor, searchTerm));
  });
}
