import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { embedChats } from "../../db/schema.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { configuredTestApp, uploadText } from "../../server/testing/test_app.ts";
import { browserTestOptions, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";

/**
 * The widget on other web sites: host pages served from two more loopback origins (other ports of 127.0.0.1),
 * one of them allowed by the embed.
 */
const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";
/**
 * The suggested question, whose answer shows its source: a whole question, so that its cosine with the chunk stays
 * above the 0.25 threshold whatever upload time the chunk's header holds ("What does Freedonia export?" came
 * within 0.05 of it; server/testing/lexical_pairs.ts).
 */
const SUGGESTED = "What does the small country of Freedonia export?";

/**
 * A host page on its own loopback port, with styles that would spoil the widget if they reached into it (every
 * element red, serif and huge, buttons hidden) and an element of the widget's class names.
 */
function hostSite(widgetScript: (origin: string) => string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const origin = new URL(request.url).origin;
    if (new URL(request.url).pathname !== "/") return new Response("Not found.", { status: 404 });
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop</title><link rel="icon" href="data:,">
<style>
* { color: rgb(255, 0, 0) !important; font-family: serif !important; }
button { display: none !important; }
p { font-size: 40px !important; }
</style></head>
<body><h1>The shop</h1><p class="msg user">A paragraph of the page.</p>
${widgetScript(origin)}
</body></html>`;
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test({
  name:
    "browser: the chat widget on another site streams an answer with its sources, keeps the session, resets it, and is refused on a site the embed does not allow",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({
      chunks: ["Freedonia exports ", "**cheese** and violins.", " <script>alert(1)</script>"],
    }));
    await using app = await configuredTestApp({ llm: llm.baseURL });
    const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
      json: { name: "Shop help" },
    });
    const workspace = made.body.workspace;
    const location = await uploadText(app, workspace.slug, "freedonia.txt", FREEDONIA);
    const embedded = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
      json: { adds: [location] },
    });
    assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
    const lectern = app.listen();

    const tag = (embedId: string) => (origin: string) =>
      `<script data-embed-id="${embedId}" data-base-api-url="${lectern}/api/embed" data-assistant-name="Shop helper" ` +
      `data-greeting="Ask us about Freedonia." data-default-messages="${SUGGESTED},Where is it?" ` +
      `data-username="visitor-${
        new URL(origin).port
      }" src="${lectern}/embed/lectern-chat-widget.min.js"></script>`;
    let embedUuid = "";
    const allowed = hostSite((origin) => tag(embedUuid)(origin));
    const third = hostSite((origin) => tag(embedUuid)(origin));
    const embed = await app.json<{ embed: { id: number; uuid: string } }>("/api/embeds/new", {
      json: { workspace_id: workspace.id, chat_mode: "chat", allowlist_domains: allowed.url },
    });
    assert.equal(embed.status, 200, JSON.stringify(embed.body));
    embedUuid = embed.body.embed.uuid;
    const storedChats = async () =>
      (await app.deps.db.select().from(embedChats).where(eq(embedChats.embedId, embed.body.embed.id))).length;

    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: "light",
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(allowed.url);
      const bubble = page.getByRole("button", { name: "Open the chat" });
      await bubble.waitFor();
      assert.equal(await bubble.isVisible(), true, "the page's `button { display: none }` does not reach it");
      await bubble.click();
      const dialog = page.getByRole("dialog", { name: "Shop helper" });
      await dialog.getByText("Ask us about Freedonia.").waitFor();
      const greeting = dialog.getByText("Ask us about Freedonia.");
      const looks = await greeting.evaluate((node) => {
        const style = getComputedStyle(node);
        return { color: style.color, font: style.fontFamily, size: style.fontSize };
      });
      assert.notEqual(looks.color, "rgb(255, 0, 0)", "the page's colour does not reach into the widget");
      assert.doesNotMatch(looks.font, /^serif$/);
      assert.notEqual(looks.size, "40px");
      const pageParagraph = await page.locator("body > p.msg").evaluate((node) =>
        getComputedStyle(node).maxWidth
      );
      assert.equal(pageParagraph, "none", "the widget's styles do not reach the page");

      // A suggested question asks it; the answer streams in with its source.
      await dialog.getByRole("button", { name: SUGGESTED }).click();
      const answer = dialog.locator(".msg.assistant").last();
      await answer.locator(".md").getByText("cheese and violins.", { exact: false }).waitFor();
      await answer.getByText("Sources").waitFor();
      assert.equal(await answer.locator("strong").textContent(), "cheese", "markdown is rendered");
      assert.match(
        await answer.innerText(),
        /<script>alert\(1\)<\/script>/,
        "HTML from the model stays text",
      );
      assert.equal(await answer.locator("script").count(), 0);
      const source = answer.locator(".sources summary", { hasText: "freedonia.txt" });
      await source.click();
      await answer.getByText(/Freedonia exports cheese and violins/).last().waitFor();
      await page.screenshot({ path: new URL("chat-widget-light.png", SCREENSHOTS).pathname });
      assert.equal(await storedChats(), 1, "the chat is kept as the embed's");
      const [stored] = await app.deps.db.select().from(embedChats).where(
        eq(embedChats.embedId, embed.body.embed.id),
      );
      const session = await page.evaluate(
        (id) => localStorage.getItem(`lectern_chat_${id}_session_id`),
        embedUuid,
      );
      assert.equal(stored.sessionId, session, "the session id kept in the page's storage");

      // The composer asks a second question; a new visit to the page shows the session's history.
      const input = dialog.getByLabel("Your message");
      await input.fill("And its capital?");
      await input.press("Enter");
      await dialog.locator(".msg.assistant .md").nth(1).getByText("cheese and violins.", { exact: false })
        .waitFor();
      await dialog.getByRole("button", { name: "Send" }).waitFor();
      await page.reload();
      const reopened = page.getByRole("dialog", { name: "Shop helper" });
      await reopened.getByText("And its capital?").waitFor();
      assert.equal(await reopened.locator(".msg.user").count(), 2, "history as the server answers it");

      // Dark, by the visitor's system.
      const background = () => reopened.evaluate((node) => getComputedStyle(node).backgroundColor);
      const light = await background();
      await page.emulateMedia({ colorScheme: "dark" });
      assert.notEqual(await background(), light, "dark follows the system");
      await page.screenshot({ path: new URL("chat-widget-dark.png", SCREENSHOTS).pathname });
      await page.emulateMedia({ colorScheme: "light" });

      // Reset forgets the session's messages, here and on the server.
      await reopened.getByRole("button", { name: "Reset chat" }).click();
      await reopened.getByText("Ask us about Freedonia.").waitFor();
      assert.equal(await reopened.locator(".msg").count(), 0);
      const history = await app.json<{ history: unknown[] }>(`/api/embed/${embedUuid}/${session}`, {
        headers: { Origin: allowed.url },
      });
      assert.deepEqual(history.body.history, []);

      // A phone: the window takes the whole screen and closes back to the bubble.
      await page.setViewportSize({ width: 375, height: 700 });
      const box = await reopened.boundingBox();
      assert.ok(box && box.width === 375 && box.height === 700, `phone window: ${JSON.stringify(box)}`);
      await page.screenshot({ path: new URL("chat-widget-phone.png", SCREENSHOTS).pathname });
      await reopened.getByRole("button", { name: "Close the chat" }).click();
      await page.getByRole("button", { name: "Open the chat" }).waitFor();
      assert.equal(await reopened.isVisible(), false);
      assert.deepEqual(errors, [], "no console errors on the allowed site");

      // A site the embed does not allow: refused, with a sentence in the window, and nothing is stored.
      const before = await storedChats();
      const foreign = await context.newPage();
      await foreign.goto(third.url);
      await foreign.getByRole("button", { name: "Open the chat" }).click();
      const refusedWindow = foreign.getByRole("dialog", { name: "Shop helper" });
      await refusedWindow.getByLabel("Your message").fill(SUGGESTED);
      await refusedWindow.getByLabel("Your message").press("Enter");
      await refusedWindow.locator(".msg.assistant .error")
        .getByText("The chat could not be reached: the connection failed, or this web site may not use it.")
        .waitFor();
      assert.equal(await refusedWindow.locator(".md").count(), 0, "no answer");
      assert.equal(await storedChats(), before, "no chat from a site the embed does not allow");
      await foreign.screenshot({ path: new URL("chat-widget-refused.png", SCREENSHOTS).pathname });
    } finally {
      await browser.close();
      await allowed.close();
      await third.close();
    }
  },
});
