import assert from "node:assert/strict";
import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { DETECTION_ORDER, i18n, i18nOptions, IN_BROWSER, t } from "./i18n.ts";

Deno.test("i18n: the server renders English without detecting anything", () => {
  assert.equal(IN_BROWSER, false);
  assert.equal(i18n.language, "en");
  assert.equal(i18n.t("onboarding.home.getStarted"), "Get started");
  const options = i18nOptions(false);
  assert.equal(options.lng, "en");
  assert.equal(options.detection, undefined);
});

Deno.test("i18n: the browser detects in DETECTION_ORDER, English only, nothing cached", () => {
  assert.deepEqual(DETECTION_ORDER, [
    "querystring",
    "cookie",
    "localStorage",
    "sessionStorage",
    "navigator",
    "htmlTag",
  ]);
  const options = i18nOptions(true);
  assert.equal(options.lng, undefined, "the detector decides");
  assert.deepEqual(options.detection?.order, [...DETECTION_ORDER]);
  assert.deepEqual(options.detection?.caches, []);
  assert.deepEqual(options.supportedLngs, ["en"]);
  assert.equal(options.fallbackLng, "en");
});

/** A browser-side instance whose query-string detector finds `found`. */
function detectWith(found: string) {
  const detector = new LanguageDetector();
  detector.addDetector({ name: "querystring", lookup: () => found });
  const instance = i18next.createInstance();
  instance.use(detector).init(i18nOptions(true));
  return instance;
}

Deno.test("i18n: whatever the visitor's language, the detected language is a supported one, English", () => {
  assert.equal(detectWith("fr").resolvedLanguage, "en");
  assert.equal(detectWith("en-GB").resolvedLanguage, "en");
  assert.equal(detectWith("fr").t("onboarding.home.welcome"), "Welcome to");
});

Deno.test("t() fills in values without HTML-escaping them (React escapes) and falls back to the key", () => {
  assert.equal(t("guard.checkFailed", { message: "<b>&</b>" }), "Could not check your sign-in: <b>&</b>");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(i18nOptions(false).interpolation?.escapeValue, false);
  assert.equal(i18nOptions(true).interpolation?.escapeValue, false);
});
