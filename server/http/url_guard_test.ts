import assert from "node:assert/strict";
import { addressClass, checkUrl, guardedFetch } from "./url_guard.ts";

Deno.test("addressClass() sorts addresses, IPv4-mapped IPv6 by their IPv4 part", () => {
  const cases: [string, string | null][] = [
    ["8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["2606:4700::1111", "public"],
    ["example.com", null],
    ["999.1.1.1", null],
  ];
  for (const [address, expected] of cases) assert.equal(addressClass(address), expected, address);
});

Deno.test("checkUrl() refuses other schemes, credentials and private targets unless allowed", async () => {
  const resolve = (host: string) =>
    Promise.resolve(
      host === "internal.example" ? ["10.0.0.5"] : host === "public.example" ? ["93.184.216.34"] : [],
    );
  await assert.rejects(() => checkUrl("file:///etc/passwd", { resolve }), /Only http and https/);
  await assert.rejects(
    () => checkUrl("http://user:pw@public.example/", { resolve }),
    /user name or password/,
  );
  await assert.rejects(() => checkUrl("http://127.0.0.1:11434", { resolve }), /loopback address/);
  await assert.rejects(() => checkUrl("http://localhost/", { resolve }), /loopback/);
  await assert.rejects(
    () => checkUrl("http://internal.example/", { resolve }),
    /private address \(10\.0\.0\.5\)/,
  );
  await assert.rejects(
    () => checkUrl("http://169.254.169.254/latest/meta-data", { resolve, allowPrivate: true }),
    /link-local/,
  );
  await assert.rejects(() => checkUrl("http://[::ffff:127.0.0.1]/", { resolve }), /loopback/);
  await assert.rejects(() => checkUrl("http://nowhere.example/", { resolve }), /Cannot resolve/);
  assert.equal((await checkUrl("http://127.0.0.1:11434", { resolve, allowPrivate: true })).port, "11434");
  assert.equal((await checkUrl("https://public.example/x", { resolve })).pathname, "/x");
});

Deno.test("checkUrl(): the operator's named hosts may be private; other hosts and other ranges stay refused", async () => {
  const resolve = (host: string) =>
    Promise.resolve(
      host === "gitlab.internal" ? ["10.0.0.7"] : host === "other.internal" ? ["10.0.0.8"] : [
        "169.254.169.254",
      ],
    );
  const allowHosts = ["gitlab.internal", "127.0.0.1"];
  assert.equal(
    (await checkUrl("https://GitLab.internal/group/project", { resolve, allowHosts })).hostname,
    "gitlab.internal",
  );
  assert.equal((await checkUrl("http://127.0.0.1:8929/api/v4", { resolve, allowHosts })).port, "8929");
  await assert.rejects(() => checkUrl("https://other.internal/", { resolve, allowHosts }), /private address/);
  await assert.rejects(() => checkUrl("http://[::1]/", { resolve, allowHosts }), /loopback/);
  await assert.rejects(
    () => checkUrl("http://metadata.internal/", { resolve, allowHosts: ["metadata.internal"] }),
    /link-local/,
  );
});

Deno.test("guardedFetch() checks every redirect again", async () => {
  const resolve = (host: string) => Promise.resolve(host === "public.example" ? ["93.184.216.34"] : []);
  const fakeFetch = (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.endsWith("/start")) {
      return Promise.resolve(
        new Response(null, { status: 302, headers: { location: "http://127.0.0.1/admin" } }),
      );
    }
    return Promise.resolve(new Response("ok"));
  };
  await assert.rejects(
    () => guardedFetch("http://public.example/start", {}, { resolve, fetch: fakeFetch as typeof fetch }),
    /loopback/,
  );
  const ok = await guardedFetch("http://public.example/page", {}, {
    resolve,
    fetch: fakeFetch as typeof fetch,
  });
  assert.equal(await ok.text(), "ok");
});

Deno.test("SSRF: every special-purpose form of the IANA registries is refused, also with allowPrivate", async () => {
  // Pure classification: nothing here is ever connected to (checkUrl below gets a resolver and no fetch).
  const cases: [string, string][] = [
    ["[::127.0.0.1]", "loopback"], // IPv4-compatible
    ["[::7f00:1]", "loopback"],
    ["[64:ff9b::7f00:1]", "loopback"], // NAT64
    ["[64:ff9b::a9fe:a9fe]", "link-local"],
    ["[64:ff9b:1::1]", "reserved"], // local-use NAT64
    ["[::ffff:0:7f00:1]", "loopback"], // IPv4-translated
    ["[::ffff:0:127.0.0.1]", "loopback"],
    ["[2002:7f00:1::1]", "reserved"], // 6to4
    ["[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "reserved"], // Teredo
    ["[2001:db8::1]", "reserved"],
    ["[100::1]", "reserved"],
    ["[fec0::1]", "private"], // site-local
    ["[fe80::1%25eth0]", "link-local"],
    ["[ff02::1]", "multicast"],
    ["198.18.0.1", "reserved"], // benchmarking
    ["198.19.255.255", "reserved"],
    ["192.0.2.1", "reserved"],
    ["192.0.0.8", "reserved"],
    ["203.0.113.9", "reserved"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["[2001:4860:4860::8888]", "public"],
    ["[::ffff:8.8.8.8]", "public"],
    ["[1:2:3:4:5:6:7:8:9]", "invalid"],
    ["[1::2::3]", "invalid"],
  ];
  for (const [address, expected] of cases) {
    assert.equal(addressClass(address) ?? "invalid", expected, address);
  }
  const resolve = () => Promise.resolve([] as string[]);
  for (const [address, expected] of cases) {
    if (expected === "public" || expected === "invalid") continue;
    await assert.rejects(
      // Loopback and private addresses may be allowed for an admin's own server; the rest never are.
      () =>
        checkUrl(`http://${address}/`, {
          resolve,
          allowPrivate: !["loopback", "private"].includes(expected),
        }),
      /Lectern does not fetch from there|Cannot resolve|not a valid URL/,
      address,
    );
  }
});

Deno.test("SSRF: guardedFetch() connects to the address it checked, not to a second answer of the DNS", async () => {
  const hosts: string[] = [];
  let port = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    hosts.push(request.headers.get("host") ?? "");
    const url = new URL(request.url);
    if (url.pathname === "/start") return Response.redirect(`http://rebind.test:${port}/final`, 302);
    return new Response("pinned");
  });
  port = server.addr.port;
  // The name exists only in the guard's resolver: the system's DNS cannot resolve it, so the fetch reaches the
  // server only if it connects to the address that was checked.
  let asked = 0;
  const resolve = (host: string) => {
    asked++;
    return Promise.resolve(host === "rebind.test" ? ["127.0.0.1"] : []);
  };
  const response = await guardedFetch(`http://rebind.test:${port}/start`, {}, {
    resolve,
    allowPrivate: true,
  });
  assert.equal(await response.text(), "pinned");
  assert.equal(asked, 2, "each hop is resolved and checked once");
  assert.deepEqual(hosts, [`rebind.test:${port}`, `rebind.test:${port}`]);
});

Deno.test("SSRF: a redirect to another origin does not carry the credentials; one to the same origin does", async () => {
  const seen: { path: string; authorization: string | null; apiKey: string | null }[] = [];
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push({
      path: url.pathname,
      authorization: request.headers.get("authorization"),
      apiKey: request.headers.get("x-api-key"),
    });
    if (url.pathname === "/same") return Response.redirect(new URL("/landed", url), 302);
    return new Response("landed");
  });
  const other = `http://127.0.0.1:${target.addr.port}`;
  const start = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.redirect(`${other}/landed`, 302),
  );
  try {
    const headers = { Authorization: "Bearer sk-secret", "X-Api-Key": "key-secret", Accept: "text/plain" };
    const across = await guardedFetch(`http://127.0.0.1:${start.addr.port}/start`, { headers }, {
      allowPrivate: true,
    });
    assert.equal(await across.text(), "landed");
    assert.deepEqual(seen, [{ path: "/landed", authorization: null, apiKey: null }]);
    seen.length = 0;
    const within = await guardedFetch(`${other}/same`, { headers }, { allowPrivate: true });
    assert.equal(await within.text(), "landed");
    assert.deepEqual(seen.map((hop) => hop.authorization), ["Bearer sk-secret", "Bearer sk-secret"]);
  } finally {
    await target.shutdown();
    await start.shutdown();
  }
});
