import assert from "node:assert/strict";
import { createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

const PDF = new URL("../fixtures/documents/pdflatex-4-pages.pdf", import.meta.url);

Deno.test({
  name: "browser: a PDF's citation names the pages its chunks come from, and each chunk shows its page",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply(() => ({ chunks: ["It is filler text."] }));
    await using app = await createTestApp();
    await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Papers" },
    });
    const slug = created.body.workspace.slug;
    // Small chunks, so the four pages make several chunks and a question can cite more than one page.
    await app.json("/api/admin/system-preferences", {
      json: { text_splitter_chunk_size: 200, text_splitter_chunk_overlap: 0 },
    });
    const form = new FormData();
    form.append("file", new File([await Deno.readFile(PDF)], "four-pages.pdf"));
    const uploaded = await app.json(`/api/workspace/${slug}/upload-and-embed`, {
      method: "POST",
      body: form,
    });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      await page.getByLabel("Your message").fill("Hello, here is some text without a meaning");
      await page.getByLabel("Your message").press("Enter");
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("It is filler text.").waitFor();
      const citation = answer.getByRole("button", { name: /four-pages\.pdf/ });
      const label = await citation.textContent();
      assert.match(label ?? "", /four-pages\.pdf\s*pp?\. \d+(, \d+)*$/, `citation label: ${label}`);
      await citation.click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/^Page [1-4]$/).first().waitFor();
      const shown = await dialog.locator(".citation-page").allTextContents();
      assert.ok(shown.length > 0 && shown.every((text) => /^Page [1-4]$/.test(text)), shown.join(" | "));
      const cited = [...(label ?? "").matchAll(/\d+/g)].map(([digits]) => Number(digits));
      const pages = shown.map((text) => Number(text.replace("Page ", "")));
      assert.deepEqual([...new Set(pages)].sort((a, b) => a - b), cited, "the label lists the chunks' pages");
      assert.deepEqual(errors, [], "no console or hydration errors");
    } finally {
      await browser.close();
    }
  },
});
