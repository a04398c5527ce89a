import assert from "node:assert/strict";
import { renderMarkdown, renderMarkdownCached } from "./markdown.ts";
import { loadLanguage } from "./highlight.ts";

Deno.test("renderMarkdown() escapes raw HTML instead of rendering it", () => {
  const html = renderMarkdown('<script>alert(1)</script>\n\n<b onclick="x">bold</b>');
  assert.doesNotMatch(html, /<script|<b /);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /&lt;b onclick=&quot;x&quot;&gt;bold&lt;\/b&gt;/);
});

Deno.test("renderMarkdown() refuses javascript:, vbscript:, file: and non-image data: link targets", () => {
  for (
    const target of [
      "javascript:alert(1)",
      "vbscript:msgbox",
      "file:///etc/passwd",
      "data:text/html,<b>x</b>",
    ]
  ) {
    const html = renderMarkdown(`[link](${target})`);
    assert.doesNotMatch(html, /<a /, target);
  }
  assert.match(renderMarkdown("![i](data:image/png;base64,AAAA)"), /<img src="data:image\/png;base64,AAAA"/);
});

Deno.test("renderMarkdown() opens links in a new tab without the opener or a referrer, bare URLs too", () => {
  const rel = 'target="_blank" rel="noopener noreferrer nofollow"';
  assert.match(
    renderMarkdown("[site](https://example.com/a)"),
    new RegExp(`<a href="https://example.com/a" ${rel}>site</a>`),
  );
  assert.match(
    renderMarkdown("see https://example.com/b now"),
    new RegExp(`<a href="https://example.com/b" ${rel}>`),
  );
});

Deno.test("renderMarkdown() frames code with its language, or 'code' when it has none, and a copy button", async () => {
  await loadLanguage("python");
  const fenced = renderMarkdown("```python extra words\nprint('x')\n```");
  assert.match(
    fenced,
    /^<div class="code-block"><div class="code-block-header"><span class="code-language">python<\/span>/,
  );
  assert.match(
    fenced,
    /<code class="hljs language-python">/,
    "the first word of the info string is the language",
  );
  assert.match(fenced, /<span class="hljs-built_in">print<\/span>/);
  assert.match(fenced, /<\/code><\/pre><\/div>\n$/);

  const bare = renderMarkdown("```\n<tag>\n```");
  assert.match(bare, /<span class="code-language">code<\/span>/);
  assert.match(bare, /&lt;tag&gt;/);
  const indented = renderMarkdown("    indented <x>\n");
  assert.match(
    indented,
    /<span class="code-language">code<\/span><button type="button" class="code-copy" data-code-copy="">Copy code<\/button>/,
  );
  assert.match(indented, /indented &lt;x&gt;/);
});

Deno.test("renderMarkdown() keeps the info string of a fence from breaking out of the label", () => {
  const html = renderMarkdown('```"><img src=x>\ncode\n```');
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /<span class="code-language">&quot;&gt;&lt;img<\/span>/);
});

Deno.test("renderMarkdownCached() answers what renderMarkdown() answers, the same each time", () => {
  const texts = ["# Title", "plain *text*", `unique ${crypto.randomUUID()}`];
  for (const text of texts) {
    const first = renderMarkdownCached(text);
    assert.equal(first, renderMarkdown(text));
    assert.equal(renderMarkdownCached(text), first);
  }
});
