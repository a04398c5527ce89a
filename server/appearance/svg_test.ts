import assert from "node:assert/strict";
import { AppError } from "../errors.ts";
import { looksLikeSvg, sanitiseSvg } from "./svg.ts";

const wrap = (inner: string, rootAttributes = "") =>
  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${rootAttributes}>${inner}</svg>`;

/** Nothing that could run or load: the words a browser would act on are gone from the output. */
function assertInert(output: string) {
  assert.doesNotMatch(
    output,
    /<script|onload|onclick|onerror|javascript:|foreignObject|evil\.example|<iframe/i,
  );
}

Deno.test("a plain logo keeps its shapes, text, gradients and internal references", () => {
  const output = sanitiseSvg(wrap(
    `<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>` +
      `<rect width="10" height="10" fill="url(#g)" style="stroke: url('#g')"/><text x="1" y="5">A &amp; B</text>` +
      `<use xlink:href="#g"/>`,
  ));
  assert.match(output, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 10 10">/);
  assert.match(output, /<rect width="10" height="10" fill="url\(#g\)" style="stroke: url\('#g'\)"><\/rect>/);
  assert.match(output, /<text x="1" y="5">A &amp; B<\/text>/);
  assert.match(output, /<use href="#g"><\/use>/);
  assert.match(output, /<stop offset="0" stop-color="#fff"><\/stop>/);
});

Deno.test("scripts, event handlers and foreignObject are removed", () => {
  const output = sanitiseSvg(wrap(
    `<script>alert(1)</script><script xlink:href="https://evil.example/x.js"/>` +
      `<rect onclick="alert(2)" ONLOAD="alert(3)" width="1"/>` +
      `<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>` +
      `<animate attributeName="href" values="javascript:alert(4)"/><set attributeName="onclick" to="alert(5)"/>`,
    ` onload="alert(0)"`,
  ));
  assertInert(output);
  assert.doesNotMatch(output, /animate|<set/);
  assert.match(output, /<rect width="1"><\/rect>/);
});

Deno.test("javascript: links and outside images are removed, entity-encoded or not", () => {
  const output = sanitiseSvg(wrap(
    `<a href="javascript:alert(1)"><rect width="1"/></a>` +
      `<use href="java&#115;cript:alert(1)"/><use xlink:href="https://evil.example/sprite.svg#a"/>` +
      `<image href="https://evil.example/tracker.png" width="1" height="1"/>` +
      `<image xlink:href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/>` +
      `<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>` +
      `<rect fill="url(https://evil.example/x)" style="background:url(//evil.example/y)" width="2"/>` +
      `<style>@import url("https://evil.example/a.css"); rect { fill: red }</style>` +
      `<style>rect { fill: blue }</style>`,
  ));
  assertInert(output);
  assert.doesNotMatch(output, /<a[ >]/);
  assert.match(output, /<image href="data:image\/png;base64,iVBORw0KGgo=" width="1" height="1"><\/image>/);
  assert.equal(output.match(/<image/g)?.length, 1);
  assert.match(output, /<rect width="2"><\/rect>/);
  assert.match(output, /<style>rect \{ fill: blue \}<\/style>/);
  assert.doesNotMatch(output, /@import/);
});

Deno.test("elements of another namespace are dropped, even under a prefix bound to SVG elsewhere", () => {
  const output = sanitiseSvg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script>` +
      `<g xmlns="http://www.w3.org/1999/xhtml"><script>alert(2)</script></g><circle r="1"/></svg>`,
  );
  assertInert(output);
  assert.doesNotMatch(output, /<g/);
  assert.match(output, /<circle r="1"><\/circle>/);
});

Deno.test("a DOCTYPE, entities, broken XML or another root element are refused with a sentence", () => {
  const refused = (text: string, pattern: RegExp) =>
    assert.throws(() => sanitiseSvg(text), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, "invalid_input");
      assert.match(error.message, pattern);
      assert.match(error.message, /\.$/);
      return true;
    });
  refused(`<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>`, /DOCTYPE/);
  refused(`<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`, /well-formed/);
  refused(`<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>`, /not an SVG/);
  refused(`<svg><rect/></svg>`, /not an SVG/);
});

Deno.test("looksLikeSvg reads the first element, after a declaration and comments", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  assert.equal(looksLikeSvg(bytes(`<?xml version="1.0"?>\n<!-- made by hand --><svg xmlns="x">`)), true);
  assert.equal(looksLikeSvg(bytes(`<html><svg>`)), false);
  assert.equal(looksLikeSvg(bytes(`GIF89a`)), false);
});
