import type * as z from "zod";

/**
 * Answer schemas that are not part of a page's first load (issue 21): zod and the shared schemas arrive with a
 * page's first API call that needs them, fetched alongside the call itself, so the page paints and hydrates
 * without them. `lazySchema((s) => s.workspaces.WorkspaceAnswer)` names a schema of `client/lib/schemas.ts`;
 * `api()` parses with it as with the schema itself.
 */
export type Schemas = typeof import("./schemas.ts");

/** Which schema of `Schemas`: a name of its own (zod's object schemas have a `pick` method). */
export interface LazySchema<T> {
  readonly lazySchema: (schemas: Schemas) => z.ZodType<T>;
}

export function lazySchema<T>(pick: (schemas: Schemas) => z.ZodType<T>): LazySchema<T> {
  return { lazySchema: pick };
}

export function isLazySchema<T>(schema: z.ZodType<T> | LazySchema<T>): schema is LazySchema<T> {
  return typeof (schema as Partial<LazySchema<T>>).lazySchema === "function";
}

let loading: Promise<Schemas> | null = null;

/** Fetches the schemas (once). */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import("./schemas.ts");
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The schema itself, fetched first when it is a lazy one. */
export async function resolveSchema<T>(schema: z.ZodType<T> | LazySchema<T>): Promise<z.ZodType<T>> {
  return isLazySchema(schema) ? schema.lazySchema(await loadSchemas()) : schema;
}
