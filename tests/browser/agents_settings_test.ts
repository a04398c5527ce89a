import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-ignore: the Node type definitions the whole project checks with lack node:sqlite (see sql_db.ts).
import { DatabaseSync } from "node:sqlite";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { writeStdioServer } from "../../server/agents/mcp/testing.ts";
import type { McpServerView } from "../../shared/api/mcp.ts";
import { browserTestOptions, hydrated, launchChromium, pageErrors, watchErrors } from "./chromium.ts";

Deno.test({
  name:
    "browser: /settings/agents lists an MCP server with its tools, toggles a tool, and refuses a database in Lectern's storage",
  ...browserTestOptions,
  async fn() {
    // Set up (a chat model on a port nothing listens on), so the page is not sent to the onboarding.
    await using app = await configuredTestApp();
    const saved = await app.json("/api/mcp-servers/save", {
      json: { name: "tiny", server: await writeStdioServer(app.storageDir) },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    // A database outside the storage folder, which the form accepts.
    const outside = await Deno.makeTempDir({ prefix: "lectern-shop-" });
    const shop = join(outside, "shop.db");
    const db = new DatabaseSync(shop);
    db.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY)");
    db.close();

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
      const errors = watchErrors(page);
      await page.goto(`${url}/settings/agents`);
      await hydrated(page);

      // The MCP server the test configured: started by the list, running, its tools each with a switch.
      const server = page.locator('li.mcp-server[data-server="tiny"]');
      await server.getByText(/Command \(stdio\) · running \(process \d+\)/).waitFor({ timeout: 60_000 });
      const tools = server.getByRole("list", { name: "Tools of tiny" });
      const add = tools.getByRole("switch", { name: "add" });
      const boom = tools.getByRole("switch", { name: "boom" });
      assert.equal(await add.isChecked(), true);
      assert.equal(await boom.isChecked(), true);
      await tools.getByText("Always fails.").waitFor();
      assert.equal(await server.getByRole("switch", { name: "tiny" }).isChecked(), true);

      // Keeping one tool from the agent: said in a toast, kept by the server, still off after a reload.
      await boom.click();
      await page.getByText("boom is kept from the agent.").waitFor();
      await page.waitForFunction(() =>
        !document.querySelector<HTMLInputElement>('li[data-server="tiny"] .mcp-tools li:nth-child(2) input')
          ?.checked
      );
      const listed = await app.json<{ servers: McpServerView[] }>("/api/mcp-servers/list");
      assert.deepEqual(listed.body.servers[0].config?.anythingllm?.suppressedTools, ["boom"]);
      await page.reload();
      await hydrated(page);
      await page.locator('li.mcp-server[data-server="tiny"]').getByText(/running/).waitFor();
      assert.equal(
        await page.getByRole("list", { name: "Tools of tiny" }).getByRole("switch", { name: "boom" })
          .isChecked(),
        false,
      );
      assert.equal(
        await page.getByRole("list", { name: "Tools of tiny" }).getByRole("switch", { name: "add" })
          .isChecked(),
        true,
      );

      // The SQL form refuses Lectern's own storage folder, and keeps what was typed to be corrected.
      const sql = page.locator("section", { has: page.getByRole("heading", { name: "SQL databases" }) });
      await sql.getByText("No databases yet.").waitFor();
      const name = sql.getByLabel("Name");
      const path = sql.getByLabel("Path of the database file on the server");
      await name.fill("own");
      await path.fill(join(app.storageDir, "lectern.db"));
      await sql.getByRole("button", { name: "Add database" }).click();
      await page.getByText(
        "Could not update agent plugin config. The connection own cannot be used: Lectern's own storage folder cannot be queried by agents.",
      ).waitFor();
      assert.equal(await name.inputValue(), "own");
      assert.equal(await path.inputValue(), join(app.storageDir, "lectern.db"));
      await sql.getByText("No databases yet.").waitFor();

      // A file outside it is saved; the list names it, never its path; it can be removed.
      await name.fill("shop");
      await path.fill(shop);
      await sql.getByRole("button", { name: "Add database" }).click();
      await page.getByText("shop is saved.").waitFor();
      const entry = sql.locator("ul.sql-connections li");
      await entry.getByText("shop", { exact: true }).waitFor();
      assert.equal(await name.inputValue(), "");
      assert.equal(await path.inputValue(), "");
      assert.ok(!(await sql.textContent())?.includes(shop), "the path is not shown again");
      await entry.getByRole("button", { name: "Remove" }).click();
      await page.getByText("shop is removed.").waitFor();
      await sql.getByText("No databases yet.").waitFor();

      // Only the refused save's 400 is reported by Chrome.
      assert.equal(errors.filter((error) => /status of 400/.test(error)).length, 1);
      assert.deepEqual(pageErrors(errors), [], "no console or hydration errors");
    } finally {
      await browser.close();
      await app.deps.mcp.stopAll();
      await Deno.remove(outside, { recursive: true });
    }
  },
});
