import assert from "node:assert/strict";
import { parseInline, parseMarkdown, safeHref } from "./markdown.ts";

Deno.test("markdown: HTML in an answer stays text", () => {
  const blocks = parseMarkdown('<script>alert(1)</script>\n<img src=x onerror="alert(2)">');
  assert.deepEqual(blocks, [{
    kind: "paragraph",
    children: [
      { kind: "text", text: "<script>alert(1)</script>" },
      { kind: "br" },
      { kind: "text", text: '<img src=x onerror="alert(2)">' },
    ],
  }]);
});

Deno.test("markdown: links keep only http(s) and mailto targets; images become links", () => {
  assert.deepEqual(parseInline("[site](https://shop.example/a?b=1)"), [
    { kind: "link", href: "https://shop.example/a?b=1", children: [{ kind: "text", text: "site" }] },
  ]);
  assert.deepEqual(
    parseInline("[click](javascript:alert(1))"),
    [{ kind: "text", text: "click)" }],
    "no link",
  );
  assert.deepEqual(parseInline("![logo](https://evil.example/pixel.png)"), [
    { kind: "link", href: "https://evil.example/pixel.png", children: [{ kind: "text", text: "logo" }] },
  ]);
  assert.deepEqual(parseInline("see https://shop.example/faq."), [
    { kind: "text", text: "see " },
    {
      kind: "link",
      href: "https://shop.example/faq",
      children: [{ kind: "text", text: "https://shop.example/faq" }],
    },
    { kind: "text", text: "." },
  ]);
  assert.equal(safeHref("mailto:help@shop.example"), "mailto:help@shop.example");
  for (
    const bad of ["javascript:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc/passwd", "//evil"]
  ) {
    assert.equal(safeHref(bad), null, bad);
  }
});

Deno.test("markdown: emphasis, code and line breaks", () => {
  assert.deepEqual(parseInline("**bold** and *it* and `a<b>` and __b2__ and _i2_\nnext"), [
    { kind: "strong", children: [{ kind: "text", text: "bold" }] },
    { kind: "text", text: " and " },
    { kind: "em", children: [{ kind: "text", text: "it" }] },
    { kind: "text", text: " and " },
    { kind: "code", text: "a<b>" },
    { kind: "text", text: " and " },
    { kind: "strong", children: [{ kind: "text", text: "b2" }] },
    { kind: "text", text: " and " },
    { kind: "em", children: [{ kind: "text", text: "i2" }] },
    { kind: "br" },
    { kind: "text", text: "next" },
  ]);
  assert.deepEqual(parseInline("2 * 3 * 4 and snake_case_name"), [
    { kind: "text", text: "2 * 3 * 4 and snake_case_name" },
  ]);
});

Deno.test("markdown: blocks — headings, lists, code, quotes, rules", () => {
  const blocks = parseMarkdown(
    "# Title\n\nIntro line\n\n- one\n- two\n  continued\n\n3. three\n4. four\n\n```js\nlet a = '<b>';\n```\n> quoted\n\n---\nend",
  );
  assert.deepEqual(blocks.map((block) => block.kind), [
    "heading",
    "paragraph",
    "list",
    "list",
    "code",
    "quote",
    "rule",
    "paragraph",
  ]);
  assert.deepEqual(blocks[0], { kind: "heading", level: 1, children: [{ kind: "text", text: "Title" }] });
  assert.deepEqual(blocks[2], {
    kind: "list",
    ordered: false,
    start: 1,
    items: [[{ kind: "text", text: "one" }], [{ kind: "text", text: "two" }, { kind: "br" }, {
      kind: "text",
      text: "continued",
    }]],
  });
  assert.equal(blocks[3].kind === "list" && blocks[3].start, 3);
  assert.deepEqual(blocks[4], { kind: "code", language: "js", text: "let a = '<b>';" });
});

Deno.test("markdown: an unclosed fence (an answer still streaming) runs to the end", () => {
  assert.deepEqual(parseMarkdown("Look:\n```\nline 1\nline 2"), [
    { kind: "paragraph", children: [{ kind: "text", text: "Look:" }] },
    { kind: "code", language: "", text: "line 1\nline 2" },
  ]);
  assert.deepEqual(parseMarkdown(""), []);
});
