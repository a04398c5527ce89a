import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documentSyncQueues } from "../../db/schema.ts";
import { createTestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { newWorkspace } from "./support.ts";

const ARTICLE = `<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1>
<p>${
  "A tide table lists the times and heights of high and low water for a harbour, day by day. ".repeat(8)
}</p>
</article></body></html>`;

/**
 * A loopback web server that stands for the internet, counting every request, and what it answers at each
 * path (redirects to private addresses among them).
 */
function startSite() {
  const seen: string[] = [];
  let redirectTarget = "";
  const redirecting = new Set(["/redirect"]);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(url.pathname);
    if (redirecting.has(url.pathname)) {
      return new Response(null, { status: 302, headers: { location: redirectTarget } });
    }
    if (url.pathname === "/secret") {
      return new Response("INTERNAL-ONLY", { headers: { "content-type": "text/plain" } });
    }
    return new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return {
    seen,
    port: server.addr.port,
    redirectTo(target: string, path = "/redirect") {
      redirectTarget = target;
      redirecting.add(path);
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

type Site = ReturnType<typeof startSite>;

/**
 * The guard's resolver for made-up names, and a fetch that takes the one public name to the loopback site;
 * any other destination is a test failure, so nothing can reach a real network even if the guard let it.
 */
function network(site: Site) {
  const names: Record<string, string[]> = {
    "docs.example.test": ["93.184.215.14"],
    "rebind.example.test": ["93.184.215.14", "127.0.0.1"],
    "internal.example.test": ["10.0.0.8"],
    "metadata.example.test": ["169.254.169.254"],
    "mapped.example.test": ["::ffff:127.0.0.1"],
    "nat64.example.test": ["64:ff9b::a9fe:a9fe"],
  };
  const leaks: string[] = [];
  return {
    leaks,
    resolve: (hostname: string) => Promise.resolve(names[hostname] ?? []),
    fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname !== "docs.example.test") {
        leaks.push(url.href);
        return Promise.reject(new Error(`The guard let ${url.href} through`));
      }
      return fetch(`http://127.0.0.1:${site.port}${url.pathname}${url.search}`, init);
    }) as typeof fetch,
  };
}

async function linkApp(site: Site) {
  const app = await createTestApp();
  const net = network(site);
  app.deps.linkFetch = net;
  const slug = await newWorkspace(app, "Links");
  const uploadLink = (link: string) => app.json(`/api/workspace/${slug}/upload-link`, { json: { link } });
  return { app, net, slug, uploadLink };
}

const refusedAs = (host: string, kind: string, address: string) =>
  `${host} points to ${
    /^[aeiou]/.test(kind) ? "an" : "a"
  } ${kind} address (${address}); Lectern does not fetch from there.`;

Deno.test("security: upload-link refuses every loopback, private and special address form", async (t) => {
  await using site = startSite();
  const { app, net, uploadLink } = await linkApp(site);
  await using _app = app;
  const port = site.port;
  const expectRefusal = async (link: string, message: string | RegExp) => {
    const before = site.seen.length;
    const answer = await uploadLink(link);
    assert.equal(answer.status, 400, `${link}: ${JSON.stringify(answer.body)}`);
    const error = String((answer.body as { error: string }).error);
    if (typeof message === "string") assert.equal(error, message, link);
    else assert.match(error, message, link);
    assert.equal(site.seen.length, before, `${link} reached the site`);
  };

  await t.step("[ssrf] the allowed public name is fetched (the control)", async () => {
    const answer = await uploadLink("https://docs.example.test/tides");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(site.seen, ["/tides"]);
  });

  const literal: [string, string, string, string][] = [
    [`http://127.0.0.1:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://127.1.2.3:${port}/secret`, "127.1.2.3", "loopback", "127.1.2.3"],
    [`http://[::1]:${port}/secret`, "::1", "loopback", "::1"],
    [`http://[::ffff:127.0.0.1]:${port}/secret`, "::ffff:7f00:1", "loopback", "::ffff:7f00:1"],
    [`http://[::127.0.0.1]:${port}/secret`, "::7f00:1", "loopback", "::7f00:1"],
    [`http://[64:ff9b::7f00:1]:${port}/secret`, "64:ff9b::7f00:1", "loopback", "64:ff9b::7f00:1"],
    [`http://2130706433:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://0x7f.1:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://0177.0.0.1:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://0x7f000001:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://127.0.0.1.:${port}/secret`, "127.0.0.1", "loopback", "127.0.0.1"],
    [`http://localhost:${port}/secret`, "localhost", "loopback", "127.0.0.1"],
    [`http://localhost.:${port}/secret`, "localhost", "loopback", "127.0.0.1"],
    [`http://LOCALHOST:${port}/secret`, "localhost", "loopback", "127.0.0.1"],
    [`http://api.localhost:${port}/secret`, "api.localhost", "loopback", "127.0.0.1"],
    ["http://0.0.0.0/", "0.0.0.0", "unspecified", "0.0.0.0"],
    ["http://0/", "0.0.0.0", "unspecified", "0.0.0.0"],
    ["http://[::]/", "::", "unspecified", "::"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254", "link-local", "169.254.169.254"],
    ["http://[::ffff:169.254.169.254]/", "::ffff:a9fe:a9fe", "link-local", "::ffff:a9fe:a9fe"],
    ["http://[fd00:ec2::254]/", "fd00:ec2::254", "link-local", "fd00:ec2::254"],
    ["http://[fe80::1]/", "fe80::1", "link-local", "fe80::1"],
    ["http://10.0.0.1/", "10.0.0.1", "private", "10.0.0.1"],
    ["http://172.16.0.1/", "172.16.0.1", "private", "172.16.0.1"],
    ["http://192.168.0.1/", "192.168.0.1", "private", "192.168.0.1"],
    ["http://100.64.0.1/", "100.64.0.1", "private", "100.64.0.1"],
    ["http://[fd12::1]/", "fd12::1", "private", "fd12::1"],
    ["http://224.0.0.1/", "224.0.0.1", "multicast", "224.0.0.1"],
    ["http://255.255.255.255/", "255.255.255.255", "reserved", "255.255.255.255"],
    ["http://198.18.0.1/", "198.18.0.1", "reserved", "198.18.0.1"],
  ];
  await t.step(
    "[ssrf] loopback, private and special IP literals in every notation are refused with the guard's message",
    async () => {
      for (const [link, host, kind, address] of literal) {
        await expectRefusal(link, refusedAs(host, kind, address));
      }
    },
  );

  await t.step(
    "[ssrf] names that resolve to private, loopback, metadata or NAT64 addresses are refused",
    async () => {
      await expectRefusal(
        "http://internal.example.test/",
        refusedAs("internal.example.test", "private", "10.0.0.8"),
      );
      await expectRefusal(
        "http://metadata.example.test/latest",
        refusedAs("metadata.example.test", "link-local", "169.254.169.254"),
      );
      await expectRefusal(
        "http://mapped.example.test/",
        refusedAs("mapped.example.test", "loopback", "::ffff:127.0.0.1"),
      );
      await expectRefusal(
        "http://nat64.example.test/",
        refusedAs("nat64.example.test", "link-local", "64:ff9b::a9fe:a9fe"),
      );
    },
  );

  await t.step(
    "[ssrf] a name with one public and one loopback answer is refused (every address is checked)",
    async () => {
      await expectRefusal(
        "http://rebind.example.test/",
        refusedAs("rebind.example.test", "loopback", "127.0.0.1"),
      );
    },
  );

  await t.step("[ssrf] user-info tricks are refused before any lookup", async () => {
    for (
      const link of [
        `http://evil@127.0.0.1:${port}/secret`,
        "http://docs.example.test@127.0.0.1/",
        "http://user:pass@docs.example.test/",
        "http://docs.example.test:80@169.254.169.254/",
      ]
    ) await expectRefusal(link, "Addresses with a user name or password in them are refused.");
    await expectRefusal(
      `http://127.0.0.1:${port}#@docs.example.test/`,
      refusedAs("127.0.0.1", "loopback", "127.0.0.1"),
    );
  });

  await t.step("[ssrf] other schemes are refused", async () => {
    for (
      const link of [
        "file:///etc/passwd",
        "ftp://docs.example.test/x",
        "gopher://127.0.0.1:25/",
        "data:text/html,hi",
      ]
    ) {
      const answer = await uploadLink(link);
      assert.equal(answer.status, 400, link);
      assert.match(
        String((answer.body as { error: string }).error),
        /^(Not a valid URL\.|Only http and https)/,
        link,
      );
    }
  });

  const redirects: [string, string][] = [
    [`http://127.0.0.1:${port}/secret`, refusedAs("127.0.0.1", "loopback", "127.0.0.1")],
    [`http://[::ffff:127.0.0.1]:${port}/secret`, refusedAs("::ffff:7f00:1", "loopback", "::ffff:7f00:1")],
    [`http://2130706433:${port}/secret`, refusedAs("127.0.0.1", "loopback", "127.0.0.1")],
    [
      "http://169.254.169.254/latest/meta-data/",
      refusedAs("169.254.169.254", "link-local", "169.254.169.254"),
    ],
    ["http://internal.example.test/", refusedAs("internal.example.test", "private", "10.0.0.8")],
    [`http://localhost.:${port}/secret`, refusedAs("localhost", "loopback", "127.0.0.1")],
    ["http://evil@10.0.0.1/", "Addresses with a user name or password in them are refused."],
    ["file:///etc/passwd", "Only http and https addresses can be fetched, not file."],
  ];
  await t.step(
    "[ssrf] a redirect from the allowed host to a private one is refused and not followed",
    async () => {
      for (const [target, message] of redirects) {
        site.redirectTo(target);
        const answer = await uploadLink("http://docs.example.test/redirect");
        assert.equal(answer.status, 400, target);
        assert.equal((answer.body as { error: string }).error, message, target);
        assert.ok(!site.seen.includes("/secret"), `${target} was followed`);
      }
    },
  );

  await t.step("[ssrf] nothing ever got past the guard to the network", () => {
    assert.deepEqual(net.leaks, []);
  });
});

Deno.test("security: live sync re-checks a watched link, so a later redirect to a private address is refused", async (t) => {
  await using site = startSite();
  const { app, net, slug, uploadLink } = await linkApp(site);
  await using _app = app;
  const uploaded = await uploadLink("http://docs.example.test/redirect-later");
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  const location = (uploaded.body as { documents: { location: string }[] }).documents[0].location;
  await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  const watched = await app.json(`/api/workspace/${slug}/update-watch-status`, {
    json: { docPath: location, watchStatus: true },
  });
  assert.equal(watched.status, 200, JSON.stringify(watched.body));
  const enabled = await app.json("/api/experimental/toggle-live-sync", { json: { updatedStatus: true } });
  assert.equal(enabled.status, 200);
  const [queue] = await app.deps.db.select().from(documentSyncQueues);
  await app.deps.db.update(documentSyncQueues).set({ nextSyncAt: new Date(Date.now() - 1000) })
    .where(eq(documentSyncQueues.id, queue.id));

  await t.step("[ssrf] a watched link now redirecting to loopback is refused by the re-fetch", async () => {
    site.redirectTo(`http://127.0.0.1:${site.port}/secret`, "/redirect-later");
    const synced = await app.json<{ execution: { status: string; result: string } }>(
      `/api/experimental/live-sync/queues/${queue.id}/sync-now`,
      { method: "POST" },
    );
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    assert.equal(synced.body.execution.status, "failed");
    assert.equal(synced.body.execution.result, refusedAs("127.0.0.1", "loopback", "127.0.0.1"));
    assert.ok(!site.seen.includes("/secret"));
    assert.deepEqual(net.leaks, []);
  });

  await t.step(
    "[ssrf] a watched link now redirecting to the metadata address is refused the same way",
    async () => {
      site.redirectTo("http://169.254.169.254/latest/meta-data/", "/redirect-later");
      const synced = await app.json<{ execution: { status: string; result: string } }>(
        `/api/experimental/live-sync/queues/${queue.id}/sync-now`,
        { method: "POST" },
      );
      assert.equal(
        synced.body.execution?.result,
        refusedAs("169.254.169.254", "link-local", "169.254.169.254"),
      );
      assert.deepEqual(net.leaks, []);
    },
  );
});

/**
 * The providers' fetch for this test: loopback goes through, anything else is recorded and refused, so a
 * model lookup can never reach another address even if the guard under test let it through.
 */
function loopbackOnly() {
  const leaks: string[] = [];
  const fetchLoopback = ((input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "127.0.0.1") {
      leaks.push(url.href);
      return Promise.reject(new Error(`The guard let ${url.href} through`));
    }
    return fetch(input, init);
  }) as typeof fetch;
  return { leaks, fetch: fetchLoopback };
}

Deno.test("security: endpoints an admin saves may be on loopback or the LAN, never link-local or special", async (t) => {
  await using llm = startFakeOpenAi();
  const net = loopbackOnly();
  await using app = await createTestApp({ providerDeps: { fetch: net.fetch } });
  const save = (values: Record<string, string>) => app.json("/api/system/update-env", { json: values });
  const lookup = (basePath: string) =>
    app.json<{ models: unknown[]; error: string | null }>("/api/system/custom-models", {
      json: { provider: "generic-openai", basePath },
    });

  await t.step(
    "[ssrf] an LLM base path on loopback is allowed by design (an admin's own server)",
    async () => {
      const saved = await save({
        GenericOpenAiBasePath: llm.baseURL,
        OllamaLLMBasePath: "http://127.0.0.1:11434",
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const models = await lookup(llm.baseURL);
      assert.equal(models.status, 200);
      assert.deepEqual(models.body.models.length, 1);
    },
  );

  const special = [
    ["http://169.254.169.254/v1", "169.254.169.254 is a link-local address; Lectern does not connect there."],
    [
      "http://[::ffff:169.254.169.254]/v1",
      "::ffff:a9fe:a9fe is a link-local address; Lectern does not connect there.",
    ],
    ["http://[fe80::1]:8080/v1", "fe80::1 is a link-local address; Lectern does not connect there."],
    ["http://0.0.0.0:1234/v1", "0.0.0.0 is an unspecified address; Lectern does not connect there."],
    ["http://224.0.0.1/v1", "224.0.0.1 is a multicast address; Lectern does not connect there."],
    [
      "http://[64:ff9b::a9fe:a9fe]/v1",
      "64:ff9b::a9fe:a9fe is a link-local address; Lectern does not connect there.",
    ],
    ["http://2852039166/v1", "169.254.169.254 is a link-local address; Lectern does not connect there."],
  ];
  await t.step(
    "[ssrf] saving an LLM, embedder or vector database endpoint at a link-local or special address is refused",
    async () => {
      const keys = [
        "GenericOpenAiBasePath",
        "EmbeddingBasePath",
        "ChromaEndpoint",
        "LocalAiBasePath",
        "QdrantEndpoint",
        "WeaviateEndpoint",
        "MilvusAddress",
        "ZillizEndpoint",
        "AstraDBEndpoint",
      ];
      for (const key of keys) {
        for (const [value, reason] of special) {
          const answer = await save({ [key]: value });
          assert.equal(answer.status, 400, `${key}=${value}`);
          assert.deepEqual(answer.body, { newValues: {}, error: `${key}: ${reason}` });
        }
      }
      assert.equal(app.deps.settings.value("GenericOpenAiBasePath"), llm.baseURL.replace(/\/+$/, ""));
    },
  );

  await t.step(
    "[ssrf] a model lookup at a link-local or special base path is refused without a connection",
    async () => {
      for (
        const [basePath, pattern] of [
          ["http://169.254.169.254/v1", /link-local address \(169\.254\.169\.254\)/],
          ["http://[::ffff:169.254.169.254]/v1", /link-local/],
          ["http://[fd00:ec2::254]/v1", /link-local/],
          ["http://0.0.0.0:9/v1", /unspecified/],
          ["http://[::]:9/v1", /unspecified/],
          ["http://240.0.0.1/v1", /reserved/],
          ["http://evil@127.0.0.1:9/v1", /user name or password/],
          ["file:///etc/passwd", /Only http and https/],
        ] as const
      ) {
        const answer = await lookup(basePath);
        assert.equal(answer.status, 502, basePath);
        assert.match(String(answer.body.error), pattern, basePath);
      }
      assert.deepEqual(net.leaks, [], "no lookup went past the guard");
    },
  );

  await t.step(
    "[ssrf] private LAN endpoints are allowed for an admin's servers (the rule's other side)",
    async () => {
      const answer = await save({
        LocalAiBasePath: "http://192.168.1.20:8080/v1",
        ChromaEndpoint: "http://10.0.0.5:8000",
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      // Saved, not used: neither is the active provider, so nothing connects to them.
      assert.notEqual(app.deps.settings.value("VectorDB"), "chroma");
      assert.notEqual(app.deps.settings.value("LLMProvider"), "localai");
      assert.deepEqual(net.leaks, []);
    },
  );

  await t.step("[ssrf] a non-admin cannot point the instance at any endpoint", async () => {
    const multi = await app.json("/api/system/enable-multi-user", {
      json: { username: "admin", password: "admin-password" },
    });
    assert.equal(multi.status, 200);
    const admin = await app.json<{ token: string }>("/api/request-token", {
      json: { username: "admin", password: "admin-password" },
    });
    await app.json("/api/admin/users/new", {
      headers: { Authorization: `Bearer ${admin.body.token}` },
      json: { username: "member", password: "member-password", role: "manager" },
    });
    const member = await app.json<{ token: string }>("/api/request-token", {
      json: { username: "member", password: "member-password" },
    });
    const headers = { Authorization: `Bearer ${member.body.token}` };
    const saved = await app.json("/api/system/update-env", {
      headers,
      json: { GenericOpenAiBasePath: "http://127.0.0.1:1/v1" },
    });
    assert.equal(saved.status, 403);
    const before = llm.authorizations.length;
    const looked = await app.json("/api/system/custom-models", {
      headers,
      json: { provider: "generic-openai", basePath: llm.baseURL },
    });
    assert.equal(looked.status, 403);
    assert.equal(llm.authorizations.length, before, "the lookup did not reach the server");
  });
});
