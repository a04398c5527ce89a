import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail, messageOf } from "../errors.ts";
import { type ConnectorImport, RepoBranchesInput, RepoImportInput } from "../../shared/api/connectors.ts";
import { connectorContext } from "./fetch.ts";
import { connectorImports, reasonOf } from "./import.ts";
import { REPO_HOSTS } from "./registry.ts";
import { ConnectorError } from "./source.ts";

const answer = (success: boolean, reason: string | null, data: unknown) => ({ success, reason, data });

/**
 * The data connectors' calls (spec 02 §7, docs/api-compat.md#data-connectors): `{success, reason, data}`, a
 * failure answered 200 with its sentence in `reason` as the reference's collector does. Admins and managers
 * only, as the reference's `flexUserRoleValid([admin, manager])`.
 */
export function connectorRoutes(deps: Deps) {
  const imports = connectorImports(deps);
  const routes = new Hono<AppEnv>();
  for (const [id, host] of Object.entries(REPO_HOSTS)) {
    const branchesBody = (message: string) => answer(false, message, { branches: [] });
    const repoBody = (message: string) => answer(false, message, {});
    routes.post(`/ext/${id}/branches`, requirePermission("documents:manage"), async (c) => {
      const input = await parseJson(c, RepoBranchesInput, branchesBody);
      const controller = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => controller.abort(), { once: true });
      try {
        const branches = await host.branches(input, connectorContext(deps, controller.signal));
        return c.json(answer(true, null, { branches }));
      } catch (error) {
        logUnexpected(deps, id, error);
        return c.json(branchesBody(reasonOf(error)));
      }
    });
    routes.post(`/ext/${id}/repo`, requirePermission("documents:manage"), async (c) => {
      const input = await parseJson(c, RepoImportInput, repoBody);
      let started: ConnectorImport;
      let described: ReturnType<typeof host.describe>;
      try {
        const options = await host.prepare(input, connectorContext(deps, c.req.raw.signal));
        described = host.describe(options);
        started = imports.start(host, options, `${described.author}/${described.repo}:${described.branch}`);
      } catch (error) {
        logUnexpected(deps, id, error);
        return c.json(repoBody(reasonOf(error)));
      }
      if (input.background) {
        return c.json(
          answer(true, null, { ...described, files: 0, destination: started.folder, import: started }),
        );
      }
      const ended = await imports.ended(started.id)!;
      if (ended.status === "failed") return c.json(repoBody(ended.reason ?? "A processing error occurred."));
      return c.json(
        answer(true, null, { ...described, files: ended.done, destination: ended.folder, import: ended }),
      );
    });
  }
  const listBody = (message: string) => answer(false, message, {});
  return routes
    .get(
      "/ext/imports",
      requirePermission("documents:manage"),
      (c) => c.json(answer(true, null, { imports: imports.list() })),
    )
    .get("/ext/imports/:id", requirePermission("documents:manage"), (c) => {
      const found = imports.get(c.req.param("id"));
      if (!found) fail("not_found", "Cannot find that import.", listBody("Cannot find that import."));
      return c.json(answer(true, null, { import: found }));
    });
}

function logUnexpected(deps: Deps, source: string, error: unknown) {
  if (error instanceof ConnectorError) return;
  deps.log.warn("A data connector call failed", { source, error: messageOf(error) });
}
