import * as z from "zod";

export { MIN_SEARCH_CHARS } from "../limits.ts";

/** `POST /api/workspace/search`: the sidebar's search over workspace and thread names. */
export const SearchInput = z.object({
  searchTerm: z.string({ error: "searchTerm must be text." }).max(
    200,
    "The search term is too long: at most 200 characters.",
  ).default(""),
});

export const SearchAnswer = z.object({
  workspaces: z.array(z.object({ slug: z.string(), name: z.string() })),
  threads: z.array(z.object({
    slug: z.string(),
    name: z.string(),
    workspace: z.object({ slug: z.string(), name: z.string() }),
  })),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;
