// Routes whose module loads on the first request to one of their prefixes, so that a server start does not pay
// for features nobody has used yet (issue 21). The middleware in front of a lazy mount (body limits, origin
// guard, auth guard) runs exactly as for an eager one: the lazy mount is a route of the app like any other, and
// the loaded routes answer inside it with the request as the middleware left it, the context's variables (the
// actor, the API key) and its env (the connection info). A path under a prefix that the loaded routes do not
// know falls through to the app's later routes, as it would have with the routes mounted eagerly; an error
// thrown inside reaches the app's error map.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

/** Where the loaded routes find the outer request's context variables and env. */
const OUTER = Symbol("lazy routes: the outer context");

/** Each lazy mount's handler, to the routes it loads (for route tables: appRoutes below). */
const mounts = new WeakMap<object, () => Promise<RouteEntry[]>>();

/** A route of an app (`app.routes`): its method, its path and its handler. */
interface RouteEntry {
  method: string;
  path: string;
  handler: unknown;
}

interface Outer {
  vars: Record<string, unknown>;
  env: unknown;
}

/** The outer context of each request being answered by loaded routes, for headers set before an error. */
const outerContexts = new WeakMap<Request, Context<AppEnv>[]>();

/**
 * A Hono app, to be mounted at `base` ("/api" for the API) with `route("/", …)`, whose routes under `prefixes`
 * (each "/ext" matches "/ext" and "/ext/…"; "*" matches every path) are those `load` resolves to, loaded once
 * on the first request.
 */
export function lazyRoutes(
  base: string,
  prefixes: string[],
  load: () => Promise<Hono<AppEnv>>,
): Hono<AppEnv> {
  let loaded: Promise<Hono<AppEnv>> | null = null;
  let feature: Hono<AppEnv> | null = null;
  // The loaded routes' "not found": the request goes on to the app's later routes.
  const fallThrough = new WeakSet<Response>();
  const inner = () =>
    loaded ??= load().then((routes) => {
      feature = routes;
      const app = new Hono<AppEnv>();
      // The loaded routes see the variables the app's middleware set (the auth guard's actor), and its env.
      app.use(async (c, next) => {
        const outer = (c.env as { [OUTER]?: Outer } | undefined)?.[OUTER];
        if (outer) {
          for (const [name, value] of Object.entries(outer.vars)) c.set(name as "actor", value as never);
          c.env = outer.env as never;
        }
        await next();
      });
      app.route(base, routes);
      app.notFound(() => {
        const response = new Response(null, { status: 404 });
        fallThrough.add(response);
        return response;
      });
      // Errors go to the app's error map, as they would from an eager route, with the headers the loaded routes
      // set before throwing (a rate limit's Retry-After).
      app.onError((error, c) => {
        // The innermost mount's context: a lazy mount may sit inside another (the API's group holds /v1).
        const outer = outerContexts.get(c.req.raw)?.at(-1);
        c.res.headers.forEach((value, name) => {
          if (name !== "content-type" && name !== "content-length") {
            outer?.header(name, value);
          }
        });
        throw error;
      });
      return app;
    }, (error) => {
      // A failed import is tried again on the next request rather than remembered.
      loaded = null;
      throw error;
    });
  const handler: MiddlewareHandler<AppEnv> = async (c, next) => {
    const app = await inner();
    const outer: Outer = { vars: { ...c.var }, env: c.env };
    const contexts = outerContexts.get(c.req.raw) ?? [];
    outerContexts.set(c.req.raw, contexts);
    contexts.push(c);
    let response: Response;
    try {
      response = await app.fetch(c.req.raw, { [OUTER]: outer });
    } finally {
      // Before an error reaches the enclosing app's handler, which copies the headers one level further out.
      contexts.pop();
    }
    if (fallThrough.has(response)) {
      await next();
      return;
    }
    return response;
  };
  mounts.set(handler, async () => {
    await inner();
    return feature!.routes.map((route) => ({
      method: route.method,
      path: `${base}${route.path}`,
      handler: route.handler,
    }));
  });
  const mount = new Hono<AppEnv>();
  for (const prefix of prefixes) {
    if (prefix === "*") {
      mount.all("*", handler);
      continue;
    }
    mount.all(prefix, handler);
    mount.all(`${prefix}/*`, handler);
  }
  return mount;
}

/**
 * An app's routes (`app.routes`: method and path) with each lazy mount's catch-alls replaced by the routes it
 * loads (and theirs, for a lazy mount inside loaded routes): what the app serves, for the tests that walk every
 * route.
 */
export async function appRoutes(app: Hono<AppEnv>): Promise<{ method: string; path: string }[]> {
  const routes: { method: string; path: string }[] = [];
  const expanded = new Set<object>();
  const walk = async (entries: RouteEntry[]) => {
    for (const route of entries) {
      const expand = mounts.get(route.handler as object);
      if (!expand) {
        routes.push({ method: route.method, path: route.path });
        continue;
      }
      if (expanded.has(expand)) continue;
      expanded.add(expand);
      await walk(await expand());
    }
  };
  await walk(app.routes);
  return routes;
}
