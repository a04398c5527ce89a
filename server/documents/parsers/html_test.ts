// The HTML parser's cheaper replacements of library steps give what the library's own steps give.
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { Readability } from "@mozilla/readability";
import TurndownService from "turndown";
import { leanReadability, turndownInPlace } from "./html.ts";

const FIXTURES = new URL("../../../tests/fixtures/documents/", import.meta.url);

/** A page with every case the two tests tell apart: bylines short, long and empty; hidden in each way. */
const CASES = `<!doctype html><html lang="en"><head><title>Cases</title></head><body>
<header><p class="byline">By Ada Lovelace</p><span rel="author">Charles Babbage</span></header>
<div itemprop="author name"><span itemprop="name">Mary Somerville</span></div>
<div id="author-box">${"A very long author biography that goes on. ".repeat(5)}</div>
<div class="writtenby"></div><p class="dateline">   </p>
<div style="display: none">gone</div><div style="visibility: hidden">unseen</div>
<div style="color: red; display:none">red and gone</div><div style="color: red">red</div>
<div hidden>hidden</div><div aria-hidden="true">aria</div><div aria-hidden="false">shown</div>
<img aria-hidden="true" class="mwe-math-fallback-image-inline fallback-image" alt="x">
<svg aria-hidden="true"><path d="M0 0"/></svg><math><mi>x</mi></math>
<article><h1>Title</h1><p>${"Some text of the article, long enough to be one. ".repeat(20)}</p></article>
</body></html>`;

type Internals = {
  _isValidByline(node: Element, matchString: string): unknown;
  _isProbablyVisible(node: Element): unknown;
};

Deno.test("html: Readability's byline and visibility tests, made cheaper, answer as the originals for every element", async () => {
  const pages = [CASES, await Deno.readTextFile(new URL("handler.html", FIXTURES))];
  for (const html of pages) {
    const { document } = parseHTML(html);
    const original = new Readability(document as unknown as Document) as unknown as Internals;
    const lean = leanReadability(new Readability(document as unknown as Document)) as unknown as Internals;
    const elements = [...document.querySelectorAll("*")] as unknown as Element[];
    assert.ok(elements.length > 25, `${elements.length} elements`);
    let bylines = 0;
    let hidden = 0;
    for (const element of elements) {
      const matchString = `${element.className} ${element.id}`;
      const byline = Boolean(original._isValidByline(element, matchString));
      assert.equal(
        Boolean(lean._isValidByline(element, matchString)),
        byline,
        element.outerHTML.slice(0, 80),
      );
      const visible = Boolean(original._isProbablyVisible(element));
      assert.equal(Boolean(lean._isProbablyVisible(element)), visible, element.outerHTML.slice(0, 80));
      if (byline) bylines++;
      if (!visible) hidden++;
    }
    if (html === CASES) {
      // Both answers occur: the page tells a wrong replacement apart.
      assert.ok(bylines >= 3, `${bylines} bylines`);
      assert.ok(hidden >= 6, `${hidden} hidden elements`);
    }
  }
});

Deno.test("html: the lean Readability finds the same article, byline and excerpt", async () => {
  for (const html of [CASES, await Deno.readTextFile(new URL("handler.html", FIXTURES))]) {
    const read = (lean: boolean) => {
      const { document } = parseHTML(html);
      const reader = new Readability(document as unknown as Document, {
        charThreshold: 100,
        keepClasses: true,
      });
      return (lean ? leanReadability(reader) : reader).parse();
    };
    const [original, lean] = [read(false), read(true)];
    assert.ok(original?.content);
    assert.deepEqual(lean, original);
  }
});

Deno.test("html: Turndown in place gives the Markdown of Turndown on a copy, without making the copy", async () => {
  const html = await Deno.readTextFile(new URL("handler.html", FIXTURES));
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
  const copied = parseHTML(html).document.body as unknown as HTMLElement;
  const before = copied.innerHTML;
  const expected = service.turndown(copied);
  assert.equal(copied.innerHTML, before, "Turndown left the element it was given as it was");

  const body = parseHTML(html).document.body as unknown as Element;
  const markdown = turndownInPlace(service, body);
  assert.equal(markdown, expected);
  assert.ok(markdown.length > 1000);
  // The element itself was converted: its whitespace is collapsed where it is.
  assert.notEqual(body.innerHTML, before);
  assert.ok(!/\n\s*\n/.test(body.textContent ?? ""));
});
