import assert from "node:assert/strict";
import { LANGUAGES } from "./language_names.ts";
import {
  acceptedLanguages,
  isSupportedLanguage,
  languageDirection,
  matchLanguage,
  pickLanguage,
  SUPPORTED_LANGUAGES,
} from "./languages.ts";

Deno.test("languages: the reference's eighteen, English first, each named in its own script", () => {
  assert.deepEqual(SUPPORTED_LANGUAGES, [
    "en",
    "de",
    "es",
    "fr",
    "it",
    "pt-BR",
    "nl",
    "pl",
    "ru",
    "tr",
    "ja",
    "ko",
    "zh",
    "zh-TW",
    "vi",
    "fa",
    "he",
    "ar",
  ]);
  const names = Object.fromEntries(LANGUAGES.map((language) => [language.code, language.name]));
  assert.equal(names.de, "Deutsch");
  assert.equal(names.ar, "العربية");
  assert.equal(names.ja, "日本語");
  assert.equal(new Set(Object.values(names)).size, LANGUAGES.length);
  assert.ok(isSupportedLanguage("zh-TW"));
  assert.ok(!isSupportedLanguage("xx"));
  assert.ok(!isSupportedLanguage(7));
});

Deno.test("languages: ar, fa and he are written right to left", () => {
  const rtl = SUPPORTED_LANGUAGES.filter((code) => languageDirection(code) === "rtl");
  assert.deepEqual(rtl, ["fa", "he", "ar"]);
});

Deno.test("matchLanguage: regions, scripts and case find the language; unknown ones find none", () => {
  const all = SUPPORTED_LANGUAGES;
  assert.equal(matchLanguage("de-AT", all), "de");
  assert.equal(matchLanguage("PT-br", all), "pt-BR");
  assert.equal(matchLanguage("pt_BR", all), "pt-BR");
  assert.equal(matchLanguage("pt-PT", all), "pt-BR");
  assert.equal(matchLanguage("zh-CN", all), "zh");
  assert.equal(matchLanguage("zh-Hans", all), "zh");
  assert.equal(matchLanguage("zh-Hant-HK", all), "zh-TW");
  assert.equal(matchLanguage("zh-TW", all), "zh-TW");
  assert.equal(matchLanguage("zh-TW", ["en", "zh"]), "zh");
  assert.equal(matchLanguage("sv", all), null);
  assert.equal(matchLanguage("*", all), null);
  assert.equal(matchLanguage("de", ["en"]), null);
});

Deno.test("acceptedLanguages orders by q, keeps the header's order on ties, drops q=0", () => {
  assert.deepEqual(acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5"), [
    "fr-CH",
    "fr",
    "en",
    "de",
    "*",
  ]);
  assert.deepEqual(acceptedLanguages("en;q=0.2, ar, he;q=0"), ["ar", "en"]);
  assert.deepEqual(acceptedLanguages(""), []);
  assert.deepEqual(acceptedLanguages(null), []);
});

Deno.test("pickLanguage: the first tag an available language answers, else English", () => {
  assert.equal(pickLanguage([undefined, "ar", "de"], ["en", "de", "ar"]), "ar");
  assert.equal(pickLanguage(["xx", "fr", "de-DE"], ["en", "de"]), "de");
  assert.equal(pickLanguage(["fr"], ["en", "de"]), "en");
  assert.equal(pickLanguage([], ["en"]), "en");
});
