import assert from "node:assert/strict";
import { DETECTION, DETECTION_ORDER, detectLanguage, i18n, i18nOptions, IN_BROWSER, t } from "./i18n.ts";
import {
  adoptAccountLanguage,
  applyDocumentLanguage,
  rememberLanguage,
  switchLanguage,
} from "./language_switch.ts";
import { SUPPORTED_LANGUAGES } from "../../shared/languages.ts";

Deno.test("i18n: the module's instance starts in English, with every language supported and none fetched", () => {
  assert.equal(IN_BROWSER, false);
  assert.equal(i18n.language, "en");
  assert.equal(i18n.t("onboarding.home.getStarted"), "Get started");
  const options = i18nOptions();
  assert.equal(options.lng, "en");
  assert.equal(options.fallbackLng, "en");
  assert.equal(options.load, "currentOnly", "pt-BR stays pt-BR");
  assert.deepEqual(options.supportedLngs, [...SUPPORTED_LANGUAGES]);
  assert.deepEqual(Object.keys(options.resources ?? {}), ["en"], "only English is bundled");
});

Deno.test("i18n: the browser detects in DETECTION_ORDER (the spec's), nothing cached by the detector", () => {
  assert.deepEqual(DETECTION_ORDER, [
    "querystring",
    "cookie",
    "localStorage",
    "sessionStorage",
    "navigator",
    "htmlTag",
  ]);
  assert.deepEqual(DETECTION.order, [...DETECTION_ORDER]);
  assert.deepEqual(DETECTION.caches, []);
  assert.equal(DETECTION.lookupCookie, "i18next");
  assert.equal(DETECTION.lookupQuerystring, "lng");
});

Deno.test("detectLanguage: the first place naming an available language wins; English when none does", () => {
  const at = (found: Partial<Record<(typeof DETECTION_ORDER)[number], string | string[]>>) =>
    DETECTION_ORDER.map((name) => ({ name, lookup: () => found[name] }));
  const available = ["en", "de", "ar", "pt-BR"];
  assert.equal(detectLanguage(available, at({ querystring: "ar", cookie: "de", navigator: ["de"] })), "ar");
  assert.equal(detectLanguage(available, at({ cookie: "de", localStorage: "ar" })), "de");
  assert.equal(detectLanguage(available, at({ sessionStorage: "pt-br" })), "pt-BR");
  // A language whose file is absent is passed over for the next place.
  assert.equal(detectLanguage(available, at({ cookie: "fr", navigator: ["fr-FR", "de-AT"] })), "de");
  assert.equal(detectLanguage(available, at({ htmlTag: "ar" })), "ar");
  assert.equal(detectLanguage(available, at({ navigator: ["fr", "it"] })), "en");
  assert.equal(detectLanguage(available, at({})), "en");
});

Deno.test("switchLanguage loads a language's texts once, then speaks it; a failed load leaves it as it was", async () => {
  let loads = 0;
  const load = () => {
    loads++;
    return Promise.resolve({ onboarding: { home: { getStarted: "Los geht's" } } });
  };
  try {
    assert.equal(await switchLanguage("de", load), true);
    assert.equal(t("onboarding.home.getStarted"), "Los geht's");
    assert.equal(t("onboarding.home.welcome"), "Welcome to", "a missing text falls back to English");
    assert.equal(await switchLanguage("en", undefined), true);
    assert.equal(t("onboarding.home.getStarted"), "Get started");
    assert.equal(await switchLanguage("de", load), true);
    assert.equal(loads, 1);
    assert.equal(await switchLanguage("ar", () => Promise.reject(new Error("offline"))), false);
    assert.equal(await switchLanguage("fa", undefined), false);
    assert.equal(i18n.language, "de");
  } finally {
    await switchLanguage("en", undefined);
    i18n.removeResourceBundle("de", "translation");
  }
});

Deno.test("applyDocumentLanguage sets <html lang dir>; rememberLanguage writes the cookie the server reads", () => {
  const root = { lang: "en", dir: "ltr" } as HTMLElement;
  applyDocumentLanguage("he", root);
  assert.deepEqual({ lang: root.lang, dir: root.dir }, { lang: "he", dir: "rtl" });
  applyDocumentLanguage("zh-TW", root);
  assert.deepEqual({ lang: root.lang, dir: root.dir }, { lang: "zh-TW", dir: "ltr" });
  const doc = { cookie: "" };
  rememberLanguage("pt-BR", doc);
  assert.match(doc.cookie, /^i18next=pt-BR; path=\/; max-age=\d+; samesite=lax$/);
});

Deno.test("t() fills in values without HTML-escaping them (React escapes) and falls back to the key", () => {
  assert.equal(t("guard.checkFailed", { message: "<b>&</b>" }), "Could not check your sign-in: <b>&</b>");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(i18nOptions().interpolation?.escapeValue, false);
});

Deno.test("adoptAccountLanguage: the account's chosen language follows it to a new browser; English and unknown codes leave the browser's", () => {
  const doc = { cookie: "" };
  assert.equal(adoptAccountLanguage({ preferredLanguage: "de" }, doc), "de");
  assert.match(doc.cookie, /^i18next=de;/);
  const other = { cookie: "" };
  assert.equal(adoptAccountLanguage({ preferredLanguage: "en" }, other), null);
  assert.equal(adoptAccountLanguage({ preferredLanguage: "xx" }, other), null);
  assert.equal(adoptAccountLanguage(null, other), null);
  assert.equal(other.cookie, "");
});
