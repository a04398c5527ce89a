import assert from "node:assert/strict";
import { eventLogs } from "../../db/schema.ts";
import { logEvent } from "../../server/events/log.ts";
import { addUser, bearer, multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { assertAdminOnlyScreen, signIn } from "./sessions.ts";

Deno.test({
  name:
    "browser: an admin pages through the event logs, opens an event's metadata, exports them and clears them after confirming",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const admin = await multiUserInstance(app);
    const manager = await addUser(app, admin, "morgan", "manager");
    assert.equal(
      (await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name: "Harbour" } })).status,
      200,
    );
    // Enough older events for a second page.
    for (let index = 0; index < 12; index++) await logEvent(app.deps, "invite_created", { id: index });
    assert.equal(
      (await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name: "Lighthouse" } })).status,
      200,
    );
    const total = (await app.deps.db.select().from(eventLogs)).length;
    assert.ok(total > 10);

    const url = app.listen();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signIn(page, url, admin);
      await page.goto(`${url}/settings/event-logs`);
      await hydrated(page);
      assert.equal(
        await page.locator(".settings-nav").getByRole("link", { name: "Event Logs" }).isVisible(),
        true,
        "an admin is offered the page in the menu",
      );
      await page.getByRole("heading", { name: `${total} events` }).waitFor();
      const rows = page.locator(".event-logs-table tbody tr.event-log-row");
      assert.equal(await rows.count(), 10, "a page of ten, newest first");
      const newest = rows.first();
      assert.equal(await newest.getAttribute("data-event"), "workspace_created");
      assert.equal(await newest.locator("td").nth(1).innerText(), "admin");

      // The metadata opens beneath the row and closes again.
      const toggle = newest.getByRole("button", { name: "Show details" });
      await toggle.click();
      const details = page.locator(".event-log-metadata pre");
      await details.waitFor();
      assert.deepEqual(JSON.parse(await details.innerText()), { workspaceName: "Lighthouse" });
      assert.equal(
        await newest.getByRole("button", { name: "Hide details" }).getAttribute("aria-expanded"),
        "true",
      );
      await page.screenshot({ path: new URL("event-logs.png", SCREENSHOTS).pathname });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: new URL("event-logs-dark.png", SCREENSHOTS).pathname });
      await page.emulateMedia({ colorScheme: "light" });
      await newest.getByRole("button", { name: "Hide details" }).click();
      await details.waitFor({ state: "detached" });

      // The next page holds the older events, the previous one comes back.
      const pager = page.getByRole("navigation", { name: "Pages of events" });
      await pager.getByText(`1–10 of ${total}`).waitFor();
      await pager.getByRole("button", { name: "Next" }).click();
      await pager.getByText(`11–${Math.min(20, total)} of ${total}`).waitFor();
      assert.equal(await rows.count(), Math.min(10, total - 10));
      await pager.getByRole("button", { name: "Previous" }).click();
      await pager.getByText(`1–10 of ${total}`).waitFor();

      // Export: the whole log, as a file.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export JSON" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^event-logs-\d{4}-\d{2}-\d{2}\.json$/);
      const file = await Deno.readTextFile(await download.path());
      assert.equal((JSON.parse(file) as unknown[]).length, total);

      // On a phone the table becomes cards and nothing overflows the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await newest.getByRole("button", { name: "Show details" }).click();
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth),
        "no horizontal scrolling at phone width",
      );
      await page.screenshot({ path: new URL("event-logs-phone.png", SCREENSHOTS).pathname, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Clearing asks first; cancelling keeps everything.
      await page.getByRole("button", { name: "Clear event logs" }).click();
      const confirm = page.getByRole("dialog", { name: "Clear event logs" });
      await confirm.getByText("This action is irreversible.").waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      assert.equal((await app.deps.db.select().from(eventLogs)).length, total);

      await page.getByRole("button", { name: "Clear event logs" }).click();
      await confirm.getByRole("button", { name: "Clear all" }).click();
      await page.getByText("Event logs cleared successfully.").waitFor();
      await page.getByRole("heading", { name: "1 event" }).waitFor();
      assert.equal(await rows.count(), 1);
      assert.equal(await rows.first().getAttribute("data-event"), "event_logs_cleared");
      assert.equal(
        await page.getByRole("navigation", { name: "Pages of events" }).count(),
        0,
        "one page only",
      );
      const left = await app.deps.db.select().from(eventLogs);
      assert.deepEqual(left.map((row) => [row.event, row.userId]), [["event_logs_cleared", admin.user.id]]);
      assert.deepEqual(errors, [], "console errors");
      await context.close();

      // A manager may open the page (its guard) but not read the log: one sentence, no controls, no menu entry.
      await assertAdminOnlyScreen(browser, url, manager, {
        path: "/settings/event-logs",
        sentence: "Only an admin may read or clear the event logs.",
        menuName: "Event Logs",
      });
    } finally {
      await browser.close();
    }
  },
});
