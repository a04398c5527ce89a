/**
 * Stand-ins for the browser globals client code reads (`fetch`, `localStorage`, `location`, `document`), for
 * unit tests under Deno. Each `stub…` replaces one global and returns the function that puts the original back;
 * `using` or a `finally` restores it even when the test fails.
 */
import { parseHTML } from "linkedom";

/** A Storage kept in memory. */
export class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
}

/** A restore function that also serves `using`. */
export type Restore = (() => void) & Disposable;

/** Replaces `globalThis[name]` (a getter may throw, as blocked storage does) until the returned restore runs. */
export function stubGlobal(name: string, value: unknown, options: { throws?: Error } = {}): Restore {
  const before = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: true,
    get() {
      if (options.throws) throw options.throws;
      return value;
    },
    set() {},
  });
  const restore = () => {
    if (before) Object.defineProperty(globalThis, name, before);
    else delete (globalThis as Record<string, unknown>)[name];
  };
  return Object.assign(restore, { [Symbol.dispose]: restore });
}

/** A request the stubbed fetch received, its body read as text. */
export type SeenRequest = {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
  init: RequestInit;
};

/** Replaces `fetch` with `answer`; every call is recorded in `requests`. */
export function stubFetch(answer: (request: SeenRequest) => Response | Promise<Response>) {
  const requests: SeenRequest[] = [];
  const restore = stubGlobal("fetch", async (input: string | URL | Request, init: RequestInit = {}) => {
    const body = init.body;
    const seen: SeenRequest = {
      url: String(input),
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof body === "string" ? body : body instanceof FormData ? "[form]" : null,
      init,
    };
    requests.push(seen);
    init.signal?.throwIfAborted();
    return await answer(seen);
  });
  return Object.assign(restore, { requests });
}

/** A JSON answer. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Replaces `localStorage` with a fresh MemoryStorage (returned as `store`). */
export function stubStorage(store: Storage = new MemoryStorage()) {
  return Object.assign(stubGlobal("localStorage", store), { store });
}

/** Replaces `location` with one at `href` whose assign and replace are recorded, not followed. */
export function stubLocation(href = "http://127.0.0.1:3001/") {
  const url = new URL(href);
  const visits: { how: "assign" | "replace"; to: string }[] = [];
  const location = {
    href: url.href,
    origin: url.origin,
    hostname: url.hostname,
    pathname: url.pathname,
    assign: (to: string) => visits.push({ how: "assign", to }),
    replace: (to: string) => visits.push({ how: "replace", to }),
  };
  return Object.assign(stubGlobal("location", location), { visits });
}

/** Replaces `document` with a linkedom document of `html`. */
export function stubDocument(html = "<!doctype html><html><head></head><body></body></html>") {
  const { document } = parseHTML(html);
  return Object.assign(stubGlobal("document", document), { document });
}
