import assert from "node:assert/strict";
import { createTestApp, genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { type ChatCompletionRequest, startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { browserTestOptions, hydrated, launchChromium, watchErrors } from "./chromium.ts";

Deno.test({
  name: "browser: @agent shows its status lines and tool call, the chart renders, and /exit ends the session",
  ...browserTestOptions,
  async fn() {
    await using llm = startFakeOpenAi();
    llm.setReply((request: ChatCompletionRequest) => {
      if (request.messages.at(-1)?.role === "tool") return { chunks: ["Here is ", "the chart."] };
      return {
        toolCalls: [{
          name: "create-chart",
          arguments: {
            type: "bar",
            title: "Herons",
            data: [{ label: "2023", value: 4 }, { label: "2024", value: 7 }],
          },
        }],
      };
    });
    await using app = await createTestApp();
    await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
    await app.json("/api/agents/settings", { json: { skills: { "create-chart": true } } });
    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Birds" },
    });
    const slug = created.body.workspace.slug;

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/workspace/${slug}`);
      await hydrated(page);
      const input = page.getByLabel("Your message");
      await input.fill("@agent chart the herons");
      await input.press("Enter");
      await page.getByText(
        "@agent: Swapping over to agent chat. Type /exit to exit agent execution loop early.",
      )
        .waitFor();
      await page.getByText('Tool: create-chart {"type":"bar"', { exact: false }).waitFor();
      await page.getByText("Drawing a bar chart.").waitFor();
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("Here is the chart.").waitFor();
      const chart = answer.locator("figure.agent-chart svg");
      await chart.waitFor();
      assert.equal(await chart.getAttribute("aria-label"), "Herons");
      assert.equal(await answer.locator("figure.agent-chart rect").count(), 2);

      // The composer now talks to the agent; /exit ends the session.
      assert.equal(
        await input.getAttribute("placeholder"),
        "Message the agent, or type /exit to end the agent session",
      );
      await input.fill("/exit");
      await input.press("Enter");
      await page.getByText("Agent session complete.").waitFor();
      await page.waitForFunction(() =>
        document.querySelector("#chat-input")?.getAttribute("placeholder") === "Send a message"
      );

      // After a reload the saved answer still shows its chart.
      await page.reload();
      await hydrated(page);
      await page.locator(".message.assistant figure.agent-chart svg").waitFor();
      assert.deepEqual(errors, [], "no console or hydration errors");
    } finally {
      await browser.close();
    }
  },
});
