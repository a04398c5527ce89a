import type { SearchAnswer } from "../../../shared/api/search.ts";
import { api } from "../../lib/api.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

/** `POST /workspace/search`: the workspaces the visitor can see and their own threads whose names match. */
export function searchNames(searchTerm: string, signal?: AbortSignal): Promise<SearchAnswer> {
  return api("/workspace/search", {
    json: { searchTerm },
    schema: lazySchema((s) => s.search.SearchAnswer),
    signal,
  });
}
