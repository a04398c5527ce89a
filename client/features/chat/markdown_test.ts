import assert from "node:assert/strict";
import { onMarkdownChange, renderMarkdown, renderMarkdownCached } from "../../lib/markdown.ts";
import { loadLanguage } from "../../lib/highlight.ts";

Deno.test("markdown: raw HTML is escaped and unsafe links are not links", () => {
  const html = renderMarkdown(
    '<img src=x onerror="alert(1)"> [x](javascript:alert(1)) [ok](https://example.com)',
  );
  assert.doesNotMatch(html, /<img/);
  assert.doesNotMatch(html, /href="javascript/);
  assert.match(html, /<a href="https:\/\/example.com" target="_blank" rel="noopener noreferrer nofollow">/);
});

Deno.test("markdown: known languages are highlighted, unknown ones escaped, each with a copy button", async () => {
  await loadLanguage("js");
  const known = renderMarkdown("```js\nconst a = '<b>';\n```");
  assert.match(known, /<span class="hljs-keyword">const<\/span>/);
  assert.match(known, /&lt;b&gt;/);
  assert.match(known, /<code class="hljs language-js">/);
  assert.match(known, /<button type="button" class="code-copy" data-code-copy="">Copy code<\/button>/);
  assert.match(known, /<span class="code-language">js<\/span>/);

  const unknown = renderMarkdown('```nosuchlang" onclick="x\n<script>alert(1)</script>\n```');
  assert.doesNotMatch(unknown, /<script>/);
  assert.match(unknown, /&lt;script&gt;/);
  assert.doesNotMatch(unknown, /" onclick="/, "the info string cannot break out of its attribute");
  assert.doesNotMatch(unknown, /hljs-/);

  const indented = renderMarkdown("text\n\n    plain code\n");
  assert.match(indented, /class="code-block"/);
  assert.doesNotMatch(known + unknown + indented, /<script|onclick=|onerror=/i);
});

Deno.test("markdown: tables sit in a sideways-scrolling wrapper", () => {
  const html = renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |\n");
  assert.match(html, /^<div class="table-scroll"><table>/);
  assert.match(html, /<\/table>\n?<\/div>/);
});

Deno.test("markdown: a finished text is rendered once and remembered", () => {
  const text = `**cached** ${crypto.randomUUID()}`;
  const first = renderMarkdownCached(text);
  assert.equal(renderMarkdownCached(text), first);
  assert.match(first, /<strong>cached<\/strong>/);
});

Deno.test("markdown: a language not loaded yet shows escaped, loads, and the next render highlights it", async () => {
  let changes = 0;
  const stop = onMarkdownChange(() => changes++);
  try {
    const text = '```rust\nfn main() { let s = "<i>"; }\n```';
    const before = renderMarkdownCached(text);
    assert.doesNotMatch(before, /hljs-keyword/, "rust is not loaded before a block of it appears");
    assert.match(before, /&lt;i&gt;/);
    assert.equal(await loadLanguage("rs"), true);
    assert.ok(changes >= 1, "listeners hear that a language arrived");
    const after = renderMarkdownCached(text);
    assert.match(after, /<span class="hljs-keyword">fn<\/span>/, "the remembered text is rendered again");
    assert.match(after, /&lt;i&gt;/);
    assert.equal(await loadLanguage("nosuchlang"), false);
  } finally {
    stop();
  }
});
