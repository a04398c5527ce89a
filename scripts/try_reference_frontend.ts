// Tries the reference's own web frontend (AnythingLLM's `frontend/`, built with VITE_API_BASE=/api) against
// Lectern: serves its build on one loopback origin with /api proxied to a Lectern process (TRUST_PROXY, as a
// reverse proxy would be), walks the home page, a workspace chat, the document manager and a few settings pages
// in Chromium, and lists every API call that answered 403, 404, 405, 501 or 5xx, and every page error.
//   deno run -A scripts/try_reference_frontend.ts <path to frontend/dist> [--multi] [--shots DIR]
// See docs/api-compat.md for how the build is made.
import { parseArgs } from "node:util";
import { startServerProcess } from "../server/testing/process.ts";
import { startFakeOpenAi } from "../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../server/testing/test_app.ts";
import { launchChromium } from "../tests/browser/chromium.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { multi: { type: "boolean", default: false }, shots: { type: "string" } },
  allowPositionals: true,
});
const DIST = positionals[0];
if (!DIST) {
  throw new Error(
    "Usage: deno run -A scripts/try_reference_frontend.ts <frontend/dist> [--multi] [--shots DIR]",
  );
}
const shots = values.shots ?? null;
const multi = values.multi;
const storage = await Deno.makeTempDir();
await using llm = startFakeOpenAi();
llm.setReply(() => ({ chunks: ["Herons ", "are ", "wading ", "birds."] }));
await using lectern = await startServerProcess({ STORAGE_DIR: storage, LOG_LEVEL: "warn", TRUST_PROXY: "1" });
const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api")) {
    const headers = new Headers(request.headers);
    headers.set("x-forwarded-host", url.host);
    const init: RequestInit = { method: request.method, headers, redirect: "manual" };
    if (!["GET", "HEAD"].includes(request.method)) init.body = await request.arrayBuffer();
    return await fetch(`${lectern.url}${url.pathname}${url.search}`, init);
  }
  let path = `${DIST}${url.pathname}`;
  try {
    if (!(await Deno.stat(path)).isFile) path = `${DIST}/index.html`;
  } catch {
    path = `${DIST}/index.html`;
  }
  const type = path.endsWith(".js")
    ? "text/javascript"
    : path.endsWith(".css")
    ? "text/css"
    : path.endsWith(".html")
    ? "text/html"
    : path.endsWith(".svg")
    ? "image/svg+xml"
    : "application/octet-stream";
  return new Response(await Deno.readFile(path), { headers: { "content-type": type } });
});
const origin = `http://127.0.0.1:${proxy.addr.port}`;
const api = async (path: string, body?: unknown, token?: string) => {
  const response = await fetch(`${lectern.url}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return await response.json();
};
await api("/onboarding", {});
await api("/system/update-env", genericOpenAiSettings(llm.baseURL));
let token: string | undefined;
if (multi) {
  await api("/system/enable-multi-user", { username: "admin", password: "admin-password" });
  token = (await api("/request-token", { username: "admin", password: "admin-password" })).token;
}
const ws = await api("/workspace/new", { name: "Birds" }, token);
const slug = ws.workspace.slug;
const form = new FormData();
form.append("file", new File(["Herons are long-legged wading birds."], "herons.txt"));
await fetch(`${lectern.url}/api/workspace/${slug}/upload-and-embed`, {
  method: "POST",
  body: form,
  headers: token ? { Authorization: `Bearer ${token}` } : {},
});

const browser = await launchChromium();
const page = await browser.newPage();
const problems: string[] = [];
page.on("response", (response) => {
  const url = new URL(response.url());
  if (
    url.pathname.startsWith("/api") &&
    (response.status() === 404 || response.status() === 403 || response.status() === 405 ||
      response.status() === 501 || response.status() >= 500)
  ) {
    problems.push(`${response.request().method()} ${url.pathname} → ${response.status()}`);
  }
});
page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
const shot = async (name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${multi ? "multi" : "single"}-${name}.png` });
};
await page.goto(`${origin}/`);
if (multi) {
  await page.waitForTimeout(1500);
  await page.fill('input[name="username"]', "admin");
  await page.fill('input[name="password"]', "admin-password");
  await page.keyboard.press("Enter");
}
await page.waitForTimeout(3000);
await shot("home");
await page.goto(`${origin}/workspace/${slug}`);
await page.waitForTimeout(3000);
await shot("workspace");
const box = page.locator("textarea").first();
await box.fill("What are herons?");
await page.keyboard.press("Enter");
await page.waitForTimeout(4000);
await shot("chat");
const text = await page.locator("body").innerText();
console.log("answer shown:", text.includes("wading birds"));
// The document manager: the upload icon beside the workspace's name.
await page.goto(`${origin}/workspace/${slug}`);
await page.waitForTimeout(2000);
await page.mouse.click(216, 122).then(() => undefined).catch((error) =>
  problems.push(`could not open the upload modal: ${error.message}`)
);
await page.waitForTimeout(2500);
await shot("documents");
console.log("document listed:", (await page.locator("body").innerText()).includes("herons.txt"));
await page.goto(`${origin}/workspace/${slug}/settings/chat-settings`);
await page.waitForTimeout(2500);
await shot("chat-settings");
await page.goto(`${origin}/settings/llm-preference`);
await page.waitForTimeout(2500);
await shot("llm");
await page.goto(`${origin}/settings/embedding-preference`);
await page.waitForTimeout(2500);
await page.goto(`${origin}/settings/workspace-chats`);
await page.waitForTimeout(2000);
await shot("workspace-chats");
console.log([...new Set(problems)].join("\n") || "no failing API calls");
await browser.close();
await proxy.shutdown();
await Deno.remove(storage, { recursive: true });
