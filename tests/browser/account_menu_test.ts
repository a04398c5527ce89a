import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { multiUserInstance } from "../../server/testing/accounts.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { LABELS } from "../../server/settings/service.ts";
import { browserTestOptions, hydrated, launchChromium, SCREENSHOTS, watchErrors } from "./chromium.ts";
import { signIn } from "./sessions.ts";

type Box = { x: number; y: number; width: number; height: number };

const overlap = (a: Box, b: Box, margin: number) =>
  a.x - margin < b.x + b.width && b.x < a.x + a.width + margin &&
  a.y - margin < b.y + b.height && b.y < a.y + a.height + margin;

/** The visible controls (and headings) of the page that lie under or within 4 px of the account avatar. */
async function coveredByAvatar(page: Page): Promise<string[]> {
  const avatar = await page.locator(".account-avatar").boundingBox();
  assert.ok(avatar, "the avatar is shown");
  const others = await page.evaluate(() =>
    Array.from(document.querySelectorAll("button, a[href], input, select, textarea, h1, h2"))
      .filter((element) =>
        !element.closest(".account-menu") && (element as HTMLElement).offsetParent !== null
      )
      .map((element) => {
        const rect = element.getBoundingClientRect();
        const label = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 30) ?? "";
        return {
          label: `${element.tagName.toLowerCase()} "${label}"`,
          x: rect.x,
          y: rect.y,
          width: rect.width,
          height: rect.height,
        };
      })
      .filter((box) => box.width > 0 && box.height > 0)
  );
  return others.filter((box) => overlap(avatar, box, 4)).map((box) => box.label);
}

/** The entries of the account menu, once the avatar has been clicked; null when there is no avatar. */
async function menuEntries(page: Page): Promise<string[] | null> {
  const avatar = page.locator(".account-avatar");
  if (await avatar.count() === 0) return null;
  await avatar.and(page.locator(":enabled")).click();
  return await page.locator(".account-menu-item").allTextContents();
}

Deno.test({
  name: "browser: the account avatar covers no control or heading, on desktops and phones",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    await app.deps.settings.setLabels({ [LABELS.supportEmail]: "help@example.org" });
    await app.json("/api/workspace/new", { json: { name: "Docs Demo" } });
    const url = app.listen();
    const browser = await launchChromium();
    try {
      for (
        const viewport of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }, {
          width: 390,
          height: 844,
        }]
      ) {
        const phone = viewport.width < 760;
        const page = await browser.newPage({ viewport });
        const errors = watchErrors(page);
        const check = async (state: string) => {
          assert.deepEqual(await coveredByAvatar(page), [], `${viewport.width}px, ${state}`);
          if (phone) {
            // On a phone the avatar is part of the top bar.
            const bar = (await page.locator(".sidebar-top").boundingBox())!;
            const avatar = (await page.locator(".account-avatar").boundingBox())!;
            assert.ok(
              avatar.y >= bar.y && avatar.y + avatar.height <= bar.y + bar.height,
              `${state}: in the top bar`,
            );
          }
        };
        await page.goto(`${url}/`);
        await hydrated(page);
        await check("home");

        await page.goto(`${url}/workspace/docs-demo`);
        await hydrated(page);
        await check("chat");
        await page.getByRole("button", { name: /Documents \(0\)/ }).click();
        await page.locator(".doc-manager").waitFor();
        await check("documents open");
        await page.screenshot({
          path: new URL(`avatar-documents-${viewport.width}.png`, SCREENSHOTS).pathname,
        });

        await page.goto(`${url}/settings/security`);
        await hydrated(page);
        await check("settings");
        if (phone) {
          await page.getByRole("button", { name: /^Settings/ }).click();
          await check("settings menu open");
          await page.screenshot({ path: new URL("avatar-settings-phone.png", SCREENSHOTS).pathname });
          await page.getByRole("button", { name: "Open the menu" }).click();
          await check("sidebar menu open");
        }
        assert.deepEqual(errors, []);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "browser: the account menu offers Support only with a support address and Sign out only with a session",
  ...browserTestOptions,
  async fn() {
    await using app = await configuredTestApp();
    const url = app.listen();
    const browser = await launchChromium();
    try {
      const open = await browser.newPage();
      await open.goto(`${url}/`);
      await hydrated(open);
      assert.equal(await menuEntries(open), null, "an open instance without a support address has no avatar");
      const room = await open.locator(".home-header").evaluate((header) =>
        getComputedStyle(header).paddingRight
      );
      assert.ok(parseFloat(room) < 30, `no header keeps room for an avatar that is not there (${room})`);

      await app.deps.settings.setLabels({ [LABELS.supportEmail]: "help@example.org" });
      const withSupport = await browser.newPage();
      await withSupport.goto(`${url}/`);
      await hydrated(withSupport);
      assert.deepEqual(await menuEntries(withSupport), ["Support"], "open instance: nothing to sign out of");
      assert.equal(
        await withSupport.getByRole("link", { name: "Support" }).getAttribute("href"),
        "mailto:help@example.org",
      );

      await app.deps.settings.setLabels({ [LABELS.supportEmail]: null });
      const admin = await multiUserInstance(app);
      const team = await browser.newPage();
      await signIn(team, url, admin);
      await team.goto(`${url}/`);
      await hydrated(team);
      assert.deepEqual(await menuEntries(team), ["Account", "Sign out"]);
      await team.getByRole("button", { name: "Sign out" }).click();
      await team.waitForURL(`${url}/login`);
    } finally {
      await browser.close();
    }
  },
});
