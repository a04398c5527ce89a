// Which web sites may call an embed widget's public calls: read by the CORS middleware (preflights and the
// Access-Control-Allow-Origin header), the origin guard (which lets these calls through to their own check) and
// the widget routes themselves.
import type { Deps } from "../deps.ts";
import { logEvent } from "../events/log.ts";
import type { EmbedRow } from "./service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The embed a public widget call names, for the methods it answers: `POST /api/embed/:uuid/stream-chat`,
 * `GET` and `DELETE /api/embed/:uuid/:sessionId`. Only a UUID names an embed, so the admin calls under
 * `/api/embed/…` (numeric ids, `chats`, `update`) are never taken for one.
 */
export function widgetCallEmbed(method: string, path: string): string | null {
  const match = /^\/api\/embed\/([^/]+)\/([^/]+)$/.exec(path);
  if (!match || !isUuid(match[1])) return null;
  if (match[2] === "stream-chat") return method === "POST" ? match[1] : null;
  return method === "GET" || method === "HEAD" || method === "DELETE" ? match[1] : null;
}

/** An embed's allowed origins; empty means any site (the reference's rule). */
export function originAllowed(embed: EmbedRow, origin: string | undefined): boolean {
  const domains = embed.allowlistDomains ?? [];
  if (domains.length === 0) return true;
  return origin !== undefined && domains.includes(origin);
}

/** At most one event per embed and origin in this many milliseconds, so a hostile page cannot flood the log. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;
const MAX_TRACKED = 1000;

/** Logs refused origins (`embed_origin_refused`), each embed and origin at most once a minute. */
export class RefusalLog {
  private readonly last = new Map<string, number>();

  constructor(private readonly deps: Deps) {}

  async refused(embed: EmbedRow, origin: string | undefined, path: string): Promise<void> {
    const key = `${embed.id} ${origin ?? ""}`;
    const now = Date.now();
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < REFUSAL_LOG_INTERVAL_MS) return;
    if (this.last.size >= MAX_TRACKED) this.last.clear();
    this.last.set(key, now);
    this.deps.log.warn("An embed was called from a web site it does not allow", {
      embed: embed.uuid,
      origin: origin ?? null,
    });
    await logEvent(this.deps, "embed_origin_refused", {
      embedId: embed.id,
      embedUuid: embed.uuid,
      origin: origin ?? null,
      path,
    });
  }
}

const refusalLogs = new WeakMap<Deps, RefusalLog>();

/** The refusal log of this instance. */
export function refusalLog(deps: Deps): RefusalLog {
  let log = refusalLogs.get(deps);
  if (!log) {
    log = new RefusalLog(deps);
    refusalLogs.set(deps, log);
  }
  return log;
}

/**
 * The CORS decision for the widget calls (server/http/cors.ts `OriginDecider`): an existing embed's allowed
 * origins may read them (a disabled one too, so its widget can show why it does not answer); any other
 * origin is refused and logged. Undefined for every other path.
 */
export function embedCorsDecider(deps: Deps) {
  return async (request: { method: string; path: string; origin: string }): Promise<boolean | undefined> => {
    const uuid = widgetCallEmbed(request.method, request.path);
    if (uuid === null) return undefined;
    // The embeds' service (and its contracts) loads on the first widget call, not with the app at start.
    const { findEmbedByUuid } = await import("./service.ts");
    const embed = await findEmbedByUuid(deps, uuid);
    if (!embed) return false;
    if (originAllowed(embed, request.origin)) return true;
    await refusalLog(deps).refused(embed, request.origin, request.path);
    return false;
  };
}

/** For the origin guard: the widget calls check the Origin themselves, against their embed's domains. */
export function isWidgetCall(method: string, path: string): boolean {
  return widgetCallEmbed(method, path) !== null;
}
