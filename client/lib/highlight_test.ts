import assert from "node:assert/strict";
import hljs from "highlight.js/lib/common";
import { highlightCode, knownLanguages, languageNamed, loadLanguage } from "./highlight.ts";

Deno.test("highlight: the lazy languages are highlight.js's common set, with the same aliases", () => {
  const common = Object.fromEntries(
    hljs.listLanguages().map((name) => [name, [...(hljs.getLanguage(name)?.aliases ?? [])].sort()]),
  );
  const ours = Object.fromEntries(
    Object.entries(knownLanguages()).map(([name, aliases]) => [name, aliases.sort()]),
  );
  assert.deepEqual(ours, common);
  assert.equal(languageNamed("JS"), "javascript", "names are compared in lower case, as highlight.js does");
  assert.equal(languageNamed("nosuchlang"), null);
});

Deno.test("highlight: a language loads on first use, with the languages it embeds, and then highlights", async () => {
  assert.equal(highlightCode("<p>x</p>", "html"), null, "not loaded before it is asked for");
  assert.equal(await loadLanguage("html"), true);
  const html = highlightCode("<style>p { color: red }</style><script>const a = 1;</script>", "html");
  assert.ok(html);
  assert.match(html, /hljs-tag/);
  assert.match(html, /language-css/, "css, which the markup embeds, came with it");
  assert.match(html, /language-javascript/, "so did javascript");
  assert.equal(highlightCode("x", "nosuchlang"), null);
});
