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
