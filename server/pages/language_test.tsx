import assert from "node:assert/strict";
import { Hono } from "hono";
import { useTranslation } from "react-i18next";
import { documentRenderer } from "./layout.tsx";
import { localesIn } from "./language.ts";
import type { ClientAssets } from "./assets.ts";
import { createTestApp } from "../testing/test_app.ts";

const ASSETS: ClientAssets = {
  directory: "/nowhere",
  forPage: () => ({ script: "/static/main.js", styles: [], preloads: [] }),
  localeScript: (code) => `/static/assets/${code}-hash.js`,
};

function Probe() {
  const { t } = useTranslation();
  return <p id="probe">{t("onboarding.home.getStarted")}</p>;
}

/** A page shell over a folder holding English, Arabic and German (the two latter with one text each). */
async function shellApp() {
  const folder = await Deno.makeTempDir();
  const en = await Deno.readTextFile(new URL("../../client/locales/en.json", import.meta.url));
  await Deno.writeTextFile(`${folder}/en.json`, en);
  await Deno.writeTextFile(
    `${folder}/ar.json`,
    JSON.stringify({ onboarding: { home: { getStarted: "ابدأ" } } }),
  );
  await Deno.writeTextFile(
    `${folder}/de.json`,
    JSON.stringify({ onboarding: { home: { getStarted: "Loslegen" } } }),
  );
  const app = new Hono();
  app.use("*", documentRenderer(ASSETS, () => "Lectern", localesIn(new URL(`file://${folder}/`))));
  app.get("/", (c) => c.render(<Probe />, { title: "", islands: [], guard: "public" }));
  const page = async (headers: Record<string, string> = {}, query = "") => {
    const html = await (await app.request(`/${query}`, { headers })).text();
    return {
      html,
      lang: /<html lang="([^"]+)" dir="([^"]+)"/.exec(html)?.slice(1, 3).join(" "),
      text: /<p id="probe">([^<]*)<\/p>/.exec(html)?.[1],
    };
  };
  return { page, [Symbol.asyncDispose]: () => Deno.remove(folder, { recursive: true }) };
}

Deno.test("the page shell renders <html lang=ar dir=rtl> and Arabic texts for an Arabic cookie", async () => {
  await using shell = await shellApp();
  const arabic = await shell.page({ cookie: "i18next=ar" });
  assert.equal(arabic.lang, "ar rtl");
  assert.equal(arabic.text, "ابدأ");
  assert.match(arabic.html, /<link rel="modulepreload" href="\/static\/assets\/ar-hash.js"\/>/);
  const english = await shell.page();
  assert.equal(english.lang, "en ltr");
  assert.equal(english.text, "Get started");
  assert.doesNotMatch(english.html, /-hash\.js/, "English needs no texts loaded");
});

Deno.test("the page's language: ?lng=, then the cookie, then Accept-Language; absent languages are skipped", async () => {
  await using shell = await shellApp();
  assert.equal((await shell.page({ "accept-language": "fr-FR, de-AT;q=0.8, ar;q=0.5" })).lang, "de ltr");
  assert.equal((await shell.page({ "accept-language": "de", cookie: "i18next=ar" })).lang, "ar rtl");
  assert.equal((await shell.page({ cookie: "i18next=ar" }, "?lng=de")).text, "Loslegen");
  assert.equal((await shell.page({ cookie: "i18next=fr" })).lang, "en ltr", "fr has no file here");
  assert.equal((await shell.page({ cookie: "i18next=ja", "accept-language": "he, de" })).lang, "de ltr");
});

Deno.test("the real pages follow the cookie for every language whose file is present", async () => {
  await using app = await createTestApp();
  const present = (code: string) => {
    try {
      Deno.statSync(new URL(`../../client/locales/${code}.json`, import.meta.url));
      return true;
    } catch {
      return false;
    }
  };
  for (const [code, dir] of [["ar", "rtl"], ["de", "ltr"], ["he", "rtl"]]) {
    const html = await (await app.request("/login", { headers: { cookie: `i18next=${code}` } })).text();
    const expected = present(code) ? `<html lang="${code}" dir="${dir}"` : `<html lang="en" dir="ltr"`;
    assert.ok(html.includes(expected), `${code}: ${html.slice(0, 200)}`);
  }
  const html = await (await app.request("/no-such-page", { headers: { "accept-language": "xx" } })).text();
  assert.ok(html.includes(`<html lang="en" dir="ltr"`));
});
