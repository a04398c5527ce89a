// The parsers on real files (tests/fixtures/documents, see its ATTRIBUTION.md) and on files built here for the
// formats the corpus lacks. In-process: the worker around them has its own tests (parse_worker_test.ts).
import assert from "node:assert/strict";
import { parseDocument, withoutControls } from "./index.ts";
import { ParseFailure } from "./types.ts";
import { buildEpub, buildMbox, buildOdp, buildOdt, buildPptx, buildXlsx } from "./test_files.ts";
import { splitMbox } from "./mbox.ts";
import { tableText } from "./table.ts";
import { pageAt } from "../store.ts";

const FIXTURES = new URL("../../../tests/fixtures/documents/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const encode = (text: string) => new TextEncoder().encode(text);

async function failure(name: string, bytes: Uint8Array): Promise<ParseFailure> {
  try {
    await parseDocument({ name, bytes });
  } catch (error) {
    assert.ok(error instanceof ParseFailure, `expected a ParseFailure, got ${error}`);
    return error;
  }
  throw new Error(`${name} was parsed`);
}

Deno.test("markdown and text: BOM dropped, CRLF made LF, text defaults of docs/api-compat.md#document-json", async () => {
  const markdown = await parseDocument({ name: "eip-2488.md", bytes: await fixture("eip-2488.md") });
  assert.match(markdown.text, /^---\neip: 2488\ntitle: Deprecate the CALLCODE opcode\n/);
  assert.equal(markdown.docAuthor, "Unknown");
  assert.equal(markdown.description, "Unknown");
  assert.equal(markdown.docSource, "a text file uploaded by the user.");

  const bytes = await fixture("modest_proposal.txt");
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], "the fixture starts with a BOM");
  const book = await parseDocument({ name: "modest_proposal.txt", bytes });
  assert.ok(book.text.startsWith("The Project Gutenberg eBook of A Modest Proposal"));
  assert.ok(!book.text.includes("\r"));
  assert.match(book.text, /A MODEST PROPOSAL/);

  for (const extension of [".org", ".adoc", ".rst"]) {
    const parsed = await parseDocument({ name: `notes${extension}`, bytes: encode("* Heading\r\nBody") });
    assert.equal(parsed.text, "* Heading\nBody");
  }
});

Deno.test("text encodings: UTF-16 with a BOM, and Windows-1252 when the bytes are not UTF-8", async () => {
  const utf16 = new Uint8Array([0xff, 0xfe, ...[..."héllo"].flatMap((c) => [c.charCodeAt(0), 0])]);
  assert.equal((await parseDocument({ name: "a.txt", bytes: utf16 })).text, "héllo");
  const latin1 = new Uint8Array([99, 97, 102, 233, 32, 110, 97, 239, 118, 101]);
  assert.equal((await parseDocument({ name: "a.txt", bytes: latin1 })).text, "café naïve");
});

Deno.test("unknown extensions: read as text when they look like text, else the spec's reason", async () => {
  const log = await parseDocument({ name: "server.log", bytes: encode("started\nlistening on 3001") });
  assert.equal(log.text, "started\nlistening on 3001");
  const noExtension = await parseDocument({ name: "README", bytes: encode("Read me") });
  assert.equal(noExtension.text, "Read me");

  const binary = await failure("blob.bin", new Uint8Array([1, 2, 3, 0, 255, 254, 0, 7]));
  assert.equal(binary.kind, "unsupported");
  assert.equal(
    binary.message,
    "File extension .bin not supported for parsing and cannot be assumed as text file type.",
  );
  const none = await failure("core", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
  assert.equal(
    none.message,
    "File extension (none) not supported for parsing and cannot be assumed as text file type.",
  );

  // Images and audio are refused by name, even when their bytes would pass for text.
  for (const name of ["photo.png", "scan.jpg", "voice.mp3", "talk.wav", "clip.mp4", "diagram.svg"]) {
    const refused = await failure(name, encode("looks like text"));
    assert.equal(refused.kind, "unsupported");
    assert.match(
      refused.message,
      /^File extension \.\w+ not supported for parsing and cannot be assumed as text file type\.$/,
    );
  }
  const nul = await failure("data.txt", new Uint8Array([72, 0, 1, 2]));
  assert.equal(nul.message, "data.txt is not a text file: it holds binary data.");
});

Deno.test("empty files and files without text: No text content found", async () => {
  assert.equal((await failure("empty.txt", new Uint8Array())).message, "No text content found in empty.txt.");
  assert.equal((await failure("blank.md", encode(" \n\t\n"))).message, "No text content found in blank.md.");
  const docx = await failure("empty.docx", await fixture("empty.docx"));
  assert.equal(docx.kind, "empty");
  assert.equal(docx.message, "No text content found in empty.docx.");
  // An image-only PDF: nothing to read without OCR.
  const scan = await failure("imagemagick-lzw.pdf", await fixture("imagemagick-lzw.pdf"));
  assert.equal(scan.message, "No text content found in imagemagick-lzw.pdf.");
});

Deno.test("html: the article as Markdown, without navigation, with the page's title and summary", async () => {
  const parsed = await parseDocument({ name: "handler.html", bytes: await fixture("handler.html") });
  assert.match(parsed.text, /^# Apache's Handler Use/);
  assert.match(parsed.text, /## What is a Handler/);
  assert.match(parsed.text, /A "handler" is an internal Apache representation of the action/);
  assert.ok(!/<\/?(p|div|a|span|table|h\d)\b/i.test(parsed.text), "no markup is left");
  assert.match(
    parsed.text,
    /```\n<Directory "\/web\/htdocs\/asis">\n {4}SetHandler send-as-is\n<\/Directory>\n```/,
  );
  assert.ok(!parsed.text.includes("](./"), "link targets are dropped, their text is kept");
  assert.equal(parsed.innerTitle, "Apache's Handler Use - Apache HTTP Server Version 2.4");
  assert.equal(parsed.description, "This document describes the use of Apache's Handlers.");
  assert.equal(parsed.docSource, "an html file uploaded by the user.");

  // Scripts and navigation are left out; the page title heads the text.
  const small = await parseDocument({
    name: "small.htm",
    bytes: encode(
      "<html><head><title>T</title><script>alert(1)</script></head><body><nav>Home | About</nav><h2>Hi</h2><p>One <em>two</em></p></body></html>",
    ),
  });
  assert.equal(small.text, "# T\n\n## Hi\n\nOne _two_");
  // A page in Latin-1 says so in a meta tag.
  const latin = new Uint8Array([
    ...encode('<html><head><meta charset="iso-8859-1"></head><body><p>caf'),
    0xe9,
    ...encode("</p></body></html>"),
  ]);
  assert.equal((await parseDocument({ name: "latin.html", bytes: latin })).text, "café");
});

Deno.test("html: a page's scripts do not count as its text when its article is weighed against it", async () => {
  const sentence = "The quick brown fox jumps over the lazy dog near the river bank. ".repeat(2).trim();
  const page =
    `<html><head><title>Notes</title></head><body><div class="comments"><p>Reader comment: nice.</p>` +
    `</div><article><h1>Notes</h1><p>${sentence}</p></article>` +
    `<script>var data = "${"x ".repeat(3000)}";</script></body></html>`;
  const parsed = await parseDocument({ name: "notes.html", bytes: encode(page) });
  // The short article is most of the page's text once the script is left out, so it is kept alone.
  assert.equal(parsed.text, `# Notes\n\n${sentence}`);
  // Where the long text is the page's own, the article is too small a part of it: the whole body is read.
  const long = page.replace(/<script>.*<\/script>/, `<div>${"y ".repeat(3000)}</div>`);
  const whole = await parseDocument({ name: "long.html", bytes: encode(long) });
  assert.ok(whole.text.includes("y y y"));
  assert.ok(!whole.text.includes("x x"));
});

Deno.test("html: headings, lists, tables and listings are kept as Markdown, the page's chrome is dropped", async () => {
  const paragraph = (topic: string) =>
    `<p>The ${topic} section explains how the server reads its configuration files at start and how each ` +
    `directive changes what it answers; it is long enough for a reader to keep it as the article.</p>`;
  const page = `<!DOCTYPE html><html><head><title>Guide</title><style>p { color: red }</style></head><body>` +
    `<div id="page-header"><p class="menu"><a href="/mod/">Modules</a> | <a href="/faq">FAQ</a></p></div>` +
    `<nav><a href="/">Home</a> | <a href="/about">About the site</a></nav>` +
    `<div id="page-content"><h1>Guide</h1>${paragraph("first")}<h2>Steps</h2>` +
    `<ol><li>Install it</li><li>Start it</li></ol>${paragraph("second")}` +
    `<ul><li>one &amp; two</li><li>URI -&gt; file</li></ul>` +
    `<table><tr><th>Name</th><th>Value</th></tr><tr><td>Port</td><td>80</td></tr></table>` +
    `<div class="example"><p><code>Listen 80<br />\n<br />\nServerName example.com<br />\n</code></p></div>` +
    `${paragraph("third")}</div>` +
    `<div id="footer"><p class="apache">Copyright 2024 The Apache Software Foundation.</p></div>` +
    `</body></html>`;
  const { text } = await parseDocument({ name: "guide.html", bytes: encode(page) });
  assert.match(text, /^# Guide\n/);
  assert.match(text, /\n## Steps\n/);
  assert.match(text, /\n1\. +Install it\n2\. +Start it\n/);
  // A character reference is read as its character, and not escaped as Markdown because of where it falls.
  assert.match(text, /\n- +one & two\n- +URI -> file\n/);
  assert.match(text, /Name\s*Value/);
  assert.match(text, /Port\s*80/);
  // Inline code broken into lines is a listing: fenced, one line each, its blank lines kept.
  assert.match(text, /```\nListen 80\n\nServerName example\.com\n```/);
  assert.ok(!text.includes("About the site"), "navigation is dropped");
  assert.ok(!text.includes("Modules"), "the page header's menu is dropped");
  assert.ok(!text.includes("Copyright 2024"), "the footer is dropped");
  assert.ok(!text.includes("color: red"), "styles are dropped");
});

Deno.test("csv: each row with its column names, so a chunk keeps its meaning", async () => {
  const parsed = await parseDocument({
    name: "airline-safety.csv",
    bytes: await fixture("airline-safety.csv"),
  });
  const lines = parsed.text.split("\n");
  assert.match(lines[0], /^Columns: airline \| avail_seat_km_per_week \| incidents_85_99/);
  assert.equal(
    lines[1],
    "airline: Aer Lingus; avail_seat_km_per_week: 320906734; incidents_85_99: 2; fatal_accidents_85_99: 0; fatalities_85_99: 0; incidents_00_14: 0; fatal_accidents_00_14: 0; fatalities_00_14: 0",
  );
  assert.equal(lines.length, 57, "a header line and 56 airlines");
  assert.equal(tableText([["1", "2"], ["3", "4"]]), "1 | 2\n3 | 4", "numbers are not a header");
  const quoted = await parseDocument({
    name: "q.csv",
    bytes: encode('name,quote\nAnn,"Hello, ""world"""\n'),
  });
  assert.equal(quoted.text, 'Columns: name | quote\nname: Ann; quote: Hello, "world"');
});

Deno.test("tables: cells' white space made single spaces, trailing and blank cells dropped, extra columns named", () => {
  const rows = [
    [" name ", "city\u00a0 of\tbirth", "", " "],
    ["Ann  Lee", "", "Paris\r\n", "x"],
    ["", " ", "\t"],
    ["Bob", "Rome", "", ""],
  ];
  assert.equal(
    tableText(rows),
    "Columns: name | city of birth\nname: Ann Lee; column 3: Paris; column 4: x\nname: Bob; city of birth: Rome",
  );
  assert.equal(
    tableText([["a b", "a  b"], ["1", " 2 "]]),
    "a b | a b\n1 | 2",
    "a header whose names are the same once cleaned is not a header",
  );
  assert.equal(tableText([["", ""], [" "]]), "", "blank rows only");
  assert.equal(tableText([["only", "row"]]), "only | row", "one row is not a header");
  assert.equal(tableText([["h", "-1.5%"], ["a", "b"]]), "h | -1.5%\na | b", "a number in the header row");
  assert.equal(tableText([["k", "v"], ["", "2", ""]]), "Columns: k | v\nv: 2", "an empty first cell");
});

Deno.test("json: pretty-printed; JSON Lines too; broken JSON is a clear error", async () => {
  assert.equal(
    (await parseDocument({ name: "a.json", bytes: encode('{"a":[1,{"b":"c"}]}') })).text,
    '{\n  "a": [\n    1,\n    {\n      "b": "c"\n    }\n  ]\n}',
  );
  assert.equal(
    (await parseDocument({ name: "a.json", bytes: encode('{"a":1}\n{"b":2}\n') })).text,
    '{\n  "a": 1\n}\n\n{\n  "b": 2\n}',
  );
  const broken = await failure("broken.json", encode('{"a":'));
  assert.equal(broken.kind, "corrupt");
  assert.match(broken.message, /^broken\.json is not a valid JSON file or is damaged: /);
});

Deno.test("docx: paragraphs, table cells and footnotes in order, author from the document properties", async () => {
  const tables = await parseDocument({ name: "tables.docx", bytes: await fixture("tables.docx") });
  assert.equal(tables.text, "Above\n\nTop left\n\nTop right\n\nBottom left\n\nBottom right\n\nBelow");
  assert.equal(tables.docAuthor, "Michael Williamson");
  assert.equal(tables.description, "No description found.");
  assert.equal(tables.docSource, "a docx file uploaded by the user.");
  const hyphen = await parseDocument({
    name: "HC028-No-Break-Hyphen.docx",
    bytes: await fixture("HC028-No-Break-Hyphen.docx"),
  });
  assert.match(hyphen.text, /^Vid\u2011\u2011eo provides a powerful way to help you prove your point\./);
  assert.equal(hyphen.docAuthor, "Eric White");
  const notes = await parseDocument({ name: "footnotes.docx", bytes: await fixture("footnotes.docx") });
  assert.equal(
    notes.text,
    "Ouch.\n\n## Notes\n\nA tachyon walks into a bar.\n\nFin.",
    "footnotes follow the body",
  );
});

Deno.test("pdf: text per page with the page offsets kept, metadata, and the corpus's hard cases", async () => {
  const parsed = await parseDocument({
    name: "pdflatex-4-pages.pdf",
    bytes: await fixture("pdflatex-4-pages.pdf"),
  });
  assert.equal(parsed.pageBreaks?.length, 4);
  assert.equal(parsed.pageBreaks![0], 0);
  assert.match(parsed.text, /^Hello, here is some text without a meaning\./);
  for (const [index, offset] of parsed.pageBreaks!.entries()) {
    if (index > 0) {
      assert.equal(parsed.text.slice(offset - 2, offset), "\n\n", "pages are separated by a blank line");
    }
    assert.equal(pageAt(parsed.pageBreaks!, offset + 10), index + 1);
  }
  assert.equal(parsed.docAuthor, "no author found");
  assert.equal(parsed.docSource, "a pdf file uploaded by the user.");

  const arabic = await parseDocument({ name: "habibi.pdf", bytes: await fixture("habibi.pdf") });
  assert.match(arabic.text, /habibi/);
  assert.match(arabic.text, /[\u0600-\u06ff]/, "Arabic letters come through");
  assert.equal(arabic.description, "habibi", "the title from the metadata");

  const encrypted = await failure(
    "libreoffice-writer-password.pdf",
    await fixture("libreoffice-writer-password.pdf"),
  );
  assert.equal(encrypted.kind, "encrypted");
  assert.equal(
    encrypted.message,
    "libreoffice-writer-password.pdf is encrypted (password-protected) and cannot be read.",
  );
  const truncated = await failure(
    "pdflatex-4-pages-truncated.pdf",
    await fixture("pdflatex-4-pages-truncated.pdf"),
  );
  assert.equal(truncated.kind, "corrupt");
  assert.equal(
    truncated.message,
    "pdflatex-4-pages-truncated.pdf is not a valid PDF file or is damaged: Invalid PDF structure.",
  );
});

Deno.test("damaged and password-protected Office files are named as such", async () => {
  const truncated = await failure("tables-truncated.docx", await fixture("tables-truncated.docx"));
  assert.equal(truncated.kind, "corrupt");
  assert.match(
    truncated.message,
    /^tables-truncated\.docx is not a valid Word \(\.docx\) file or is damaged: /,
  );
  // A protected OOXML file is an OLE container holding an `EncryptedPackage` stream.
  const ole = new Uint8Array(2048);
  ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  ole.set([..."EncryptedPackage"].flatMap((c) => [c.charCodeAt(0), 0]), 1024);
  for (const name of ["secret.docx", "secret.xlsx", "secret.pptx"]) {
    const encrypted = await failure(name, ole);
    assert.equal(encrypted.kind, "encrypted");
    assert.equal(encrypted.message, `${name} is encrypted (password-protected) and cannot be read.`);
  }
  const oldFormat = await failure("old.docx", ole.slice(0, 512));
  assert.match(oldFormat.message, /older binary Office file/);
  const notZip = await failure("deck.pptx", encode("not a zip at all"));
  assert.equal(notZip.kind, "corrupt");
});

Deno.test("pptx: slides in presentation order, runs joined, author and title from the properties", async () => {
  const bytes = await buildPptx([["Intro slide text", "Second line & more"], ["Closing words"]], {
    title: "Quarterly review",
    author: "Ann Lee",
    order: [2, 1],
  });
  const parsed = await parseDocument({ name: "deck.pptx", bytes });
  assert.equal(
    parsed.text,
    "## Slide 1\n\nClosing words\n\n## Slide 2\n\nIntro slide text\nSecond line & more",
  );
  assert.equal(parsed.docAuthor, "Ann Lee");
  assert.equal(parsed.description, "Quarterly review");
  assert.equal(parsed.docSource, "a pptx file uploaded by the user.");
});

Deno.test("xlsx: every sheet, shared strings resolved, numbers kept, gaps left out", async () => {
  const bytes = await buildXlsx([
    { name: "People", rows: [["Name", "Age", "City"], ["Ann", 31, "Oslo"], ["Bob", null, "Rome"]] },
    { name: "Notes", rows: [["Remember the <milk> & eggs"]] },
  ]);
  const parsed = await parseDocument({ name: "book.xlsx", bytes });
  assert.equal(
    parsed.text,
    "## Sheet: People\n\nColumns: Name | Age | City\nName: Ann; Age: 31; City: Oslo\nName: Bob; City: Rome\n\n## Sheet: Notes\n\nRemember the <milk> & eggs",
  );
  assert.equal(parsed.docAuthor, "no author found");
});

Deno.test("odt and odp: paragraphs, spaces and breaks; slides without their speaker notes", async () => {
  const odt = await parseDocument({
    name: "letter.odt",
    bytes: await buildOdt(["Dear reader", "Two  spaces|and a break", "Fish & <chips>"], {
      title: "A letter",
      author: "Odette",
    }),
  });
  assert.equal(odt.text, "Dear reader\n\nTwo  spaces\nand a break\n\nFish & <chips>");
  assert.equal(odt.docAuthor, "Odette");
  assert.equal(odt.description, "A letter");
  const odp = await parseDocument({
    name: "talk.odp",
    bytes: await buildOdp([["Welcome", "Agenda"], ["Thanks"]]),
  });
  assert.equal(odp.text, "## Slide 1\n\nWelcome\nAgenda\n\n## Slide 2\n\nThanks");
  assert.equal(odp.docSource, "an odp file uploaded by the user.");
});

Deno.test("epub: chapters in spine order as Markdown; DRM-protected books are refused", async () => {
  const chapters = [
    { file: "one.xhtml", html: "<h1>Chapter One</h1><p>It was a <em>dark</em> night.</p>" },
    { file: "two.xhtml", html: "<h1>Chapter Two</h1><ul><li>first</li><li>second</li></ul>" },
  ];
  const parsed = await parseDocument({
    name: "novel.epub",
    bytes: await buildEpub({ title: "The Novel", author: "N. Writer", chapters }),
  });
  assert.equal(
    parsed.text,
    "# Chapter One\n\nIt was a _dark_ night.\n\n# Chapter Two\n\n-   first\n-   second",
  );
  assert.equal(parsed.docAuthor, "N. Writer");
  assert.equal(parsed.innerTitle, "The Novel");
  const drm = await failure(
    "locked.epub",
    await buildEpub({ title: "Locked", author: "X", chapters, encrypted: true }),
  );
  assert.equal(drm.kind, "encrypted");
  assert.equal(drm.message, "locked.epub is encrypted (DRM-protected) and cannot be read.");
});

Deno.test("mbox: each message with subject, sender, date and body; HTML bodies made text", async () => {
  const bytes = buildMbox([
    {
      from: "Ann <ann@example.org>",
      to: "Bob <bob@example.org>",
      subject: "Lunch",
      date: "Tue, 1 Jul 2025 10:00:00 +0000",
      body: "Shall we meet at noon?\nFrom the office, Ann",
    },
    {
      from: "Bob <bob@example.org>",
      subject: "Re: Lunch",
      date: "Tue, 1 Jul 2025 11:00:00 +0000",
      body: "<p>Yes, <b>noon</b> works.</p>",
      html: true,
    },
  ]);
  assert.equal(splitMbox(new TextDecoder().decode(bytes)).length, 2, "an escaped From line does not split");
  const parsed = await parseDocument({ name: "lunch.mbox", bytes });
  assert.equal(
    parsed.text,
    [
      "Subject: Lunch\nFrom: Ann <ann@example.org>\nTo: Bob <bob@example.org>\nDate: 2025-07-01T10:00:00.000Z\n\nShall we meet at noon?\nFrom the office, Ann",
      "Subject: Re: Lunch\nFrom: Bob <bob@example.org>\nDate: 2025-07-01T11:00:00.000Z\n\nYes, **noon** works.",
    ].join("\n\n---\n\n"),
  );
  assert.equal(parsed.docAuthor, "2 senders");
  assert.equal(parsed.description, "2 email messages");
});

Deno.test("control characters are dropped and the page offsets move with them", () => {
  const result = withoutControls("ab\u0000c\n\nd\u0001e", [0, 6]);
  assert.equal(result.text, "abc\n\nde");
  assert.deepEqual(result.pageBreaks, [0, 5]);
  assert.equal(result.text.slice(result.pageBreaks![1]), "de");
});
