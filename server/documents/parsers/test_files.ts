// Builders of the document formats the corpus lacks (pptx, xlsx, odt, odp, epub, mbox), for the tests.
import JSZip from "jszip";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

async function zipBytes(files: Record<string, string>, first?: [string, string]): Promise<Uint8Array> {
  const zip = new JSZip();
  // ODF and EPUB want their `mimetype` entry first and stored.
  if (first) zip.file(first[0], first[1], { compression: "STORE" });
  for (const [path, content] of Object.entries(files)) zip.file(path, content);
  return await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

function coreProperties(meta: { title?: string; author?: string }): string {
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${
    meta.title ? `<dc:title>${escapeXml(meta.title)}</dc:title>` : ""
  }${meta.author ? `<dc:creator>${escapeXml(meta.author)}</dc:creator>` : ""}</cp:coreProperties>`;
}

/** A presentation whose slides hold the given paragraphs; `order` lists slide files in presentation order. */
export function buildPptx(
  slides: string[][],
  options: { title?: string; author?: string; order?: number[] } = {},
): Promise<Uint8Array> {
  const order = options.order ?? slides.map((_, index) => index + 1);
  const files: Record<string, string> = {
    "[Content_Types].xml":
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>`,
    "docProps/core.xml": coreProperties(options),
    "ppt/presentation.xml":
      `${XML}<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>${
        order.map((number, index) => `<p:sldId id="${256 + index}" r:id="rId${number}"/>`).join("")
      }</p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels":
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${
        slides.map((_, index) =>
          `<Relationship Id="rId${
            index + 1
          }" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${
            index + 1
          }.xml"/>`
        ).join("")
      }</Relationships>`,
  };
  slides.forEach((paragraphs, index) => {
    files[`ppt/slides/slide${index + 1}.xml`] =
      `${XML}<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${
        paragraphs.map((paragraph) => {
          const [head, ...rest] = paragraph.split(" ");
          // Two runs per paragraph: the text of a paragraph is the join of its runs.
          return `<a:p><a:r><a:t>${escapeXml(head)} </a:t></a:r><a:r><a:t>${
            escapeXml(rest.join(" "))
          }</a:t></a:r></a:p>`;
        }).join("")
      }</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  return zipBytes(files);
}

/** A workbook; strings go to the shared-string table, numbers stay inline. */
export function buildXlsx(
  sheets: { name: string; rows: (string | number | null)[][] }[],
  options: { title?: string; author?: string } = {},
): Promise<Uint8Array> {
  const shared: string[] = [];
  const sharedIndex = (text: string) => {
    const found = shared.indexOf(text);
    if (found >= 0) return found;
    shared.push(text);
    return shared.length - 1;
  };
  const column = (index: number) => String.fromCharCode(65 + index);
  const files: Record<string, string> = {
    "docProps/core.xml": coreProperties(options),
    "xl/workbook.xml":
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${
        sheets.map((sheet, index) =>
          `<sheet name="${escapeXml(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`
        ).join("")
      }</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${
        sheets.map((_, index) =>
          `<Relationship Id="rId${
            index + 1
          }" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${
            index + 1
          }.xml"/>`
        ).join("")
      }</Relationships>`,
  };
  sheets.forEach((sheet, index) => {
    const rows = sheet.rows.map((row, rowIndex) =>
      `<row r="${rowIndex + 1}">${
        row.map((value, columnIndex) => {
          const reference = `${column(columnIndex)}${rowIndex + 1}`;
          if (value === null) return "";
          if (typeof value === "number") return `<c r="${reference}"><v>${value}</v></c>`;
          return `<c r="${reference}" t="s"><v>${sharedIndex(value)}</v></c>`;
        }).join("")
      }</row>`
    ).join("");
    files[`xl/worksheets/sheet${index + 1}.xml`] =
      `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  });
  files["xl/sharedStrings.xml"] =
    `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}">${
      shared.map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`).join("")
    }</sst>`;
  return zipBytes(files);
}

const ODF_NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';

function odfMeta(meta: { title?: string; author?: string }): string {
  return `${XML}<office:document-meta ${ODF_NAMESPACES}><office:meta>${
    meta.title ? `<dc:title>${escapeXml(meta.title)}</dc:title>` : ""
  }${
    meta.author ? `<meta:initial-creator>${escapeXml(meta.author)}</meta:initial-creator>` : ""
  }</office:meta></office:document-meta>`;
}

/** A text document; in each paragraph `  ` becomes `<text:s text:c="2"/>` and `|` a line break. */
export function buildOdt(paragraphs: string[], options: { title?: string; author?: string } = {}) {
  const body = paragraphs.map((paragraph, index) => {
    const inner = escapeXml(paragraph).replace(/ {2,}/g, (spaces) => `<text:s text:c="${spaces.length}"/>`)
      .replace(/\|/g, "<text:line-break/>");
    return index === 0 ? `<text:h text:outline-level="1">${inner}</text:h>` : `<text:p>${inner}</text:p>`;
  }).join("");
  return zipBytes({
    "content.xml":
      `${XML}<office:document-content ${ODF_NAMESPACES}><office:body><office:text><text:sequence-decls><text:sequence-decl text:name="Figure"/></text:sequence-decls>${body}</office:text></office:body></office:document-content>`,
    "meta.xml": odfMeta(options),
  }, ["mimetype", "application/vnd.oasis.opendocument.text"]);
}

/** A presentation with one text box per slide. */
export function buildOdp(slides: string[][], options: { title?: string; author?: string } = {}) {
  const pages = slides.map((paragraphs, index) =>
    `<draw:page draw:name="page${index + 1}"><draw:frame><draw:text-box>${
      paragraphs.map((paragraph) => `<text:p>${escapeXml(paragraph)}</text:p>`).join("")
    }</draw:text-box></draw:frame><presentation:notes><draw:frame><draw:text-box><text:p>Speaker notes</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>`
  ).join("");
  return zipBytes({
    "content.xml":
      `${XML}<office:document-content ${ODF_NAMESPACES}><office:body><office:presentation>${pages}</office:presentation></office:body></office:document-content>`,
    "meta.xml": odfMeta(options),
  }, ["mimetype", "application/vnd.oasis.opendocument.presentation"]);
}

/** An EPUB 3 book; the spine lists the chapters in the given order, the manifest in reverse. */
export function buildEpub(book: {
  title: string;
  author: string;
  chapters: { file: string; html: string }[];
  encrypted?: boolean;
}): Promise<Uint8Array> {
  const files: Record<string, string> = {
    "META-INF/container.xml":
      `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    "OEBPS/content.opf":
      `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>${
        escapeXml(book.title)
      }</dc:title><dc:creator>${
        escapeXml(book.author)
      }</dc:creator><dc:language>en</dc:language></metadata><manifest>${
        [...book.chapters].reverse().map((chapter, index) =>
          `<item id="c${
            book.chapters.length - index
          }" href="text/${chapter.file}" media-type="application/xhtml+xml"/>`
        ).join("")
      }</manifest><spine>${
        book.chapters.map((_, index) => `<itemref idref="c${index + 1}"/>`).join("")
      }</spine></package>`,
  };
  for (const chapter of book.chapters) {
    files[`OEBPS/text/${chapter.file}`] =
      `${XML}<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>${chapter.html}</body></html>`;
  }
  if (book.encrypted) {
    files["META-INF/encryption.xml"] =
      `${XML}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/text/${
        book.chapters[0].file
      }"/></enc:CipherData></enc:EncryptedData></encryption>`;
  }
  return zipBytes(files, ["mimetype", "application/epub+zip"]);
}

/** An mbox file (mboxrd: body lines starting with `From ` are escaped with `>`). */
export function buildMbox(
  messages: { from: string; to?: string; subject: string; date: string; body: string; html?: boolean }[],
): Uint8Array {
  const text = messages.map((message) => {
    const headers = [
      `From: ${message.from}`,
      message.to ? `To: ${message.to}` : "",
      `Subject: ${message.subject}`,
      `Date: ${message.date}`,
      "MIME-Version: 1.0",
      `Content-Type: ${message.html ? "text/html" : "text/plain"}; charset=utf-8`,
      "Content-Transfer-Encoding: 8bit",
    ].filter(Boolean).join("\n");
    const body = message.body.split("\n").map((line) => (/^>*From /.test(line) ? `>${line}` : line)).join(
      "\n",
    );
    return `From sender@example.org Tue Jul  1 10:00:00 2025\n${headers}\n\n${body}\n`;
  }).join("\n");
  return new TextEncoder().encode(text);
}

/**
 * A zip bomb in the shape of a workbook: one worksheet of `megabytes` MB of identical rows, a few hundred KB
 * compressed. Written by hand (DEFLATE through CompressionStream, chunk by chunk) so the test never holds the
 * expanded sheet; the CRC is left at 0, which JSZip does not check by default.
 */
export async function buildXlsxBomb(megabytes: number): Promise<Uint8Array> {
  return await buildZipBomb(
    {
      "xl/workbook.xml":
        `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Big" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels":
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    "xl/worksheets/sheet1.xml",
    `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`,
    `<row>${'<c t="s"><v>0</v></c>'.repeat(40)}</row>`,
    "</sheetData></worksheet>",
    megabytes,
  );
}

/** A zip whose one big entry inflates to `megabytes` MB of `unit` repeated, with small fixed entries beside. */
export async function buildZipBomb(
  small: Record<string, string>,
  bigName: string,
  head: string,
  unit: string,
  tail: string,
  megabytes: number,
) {
  const encoder = new TextEncoder();
  const block = encoder.encode(unit.repeat(Math.ceil((1024 * 1024) / unit.length)));
  const stream = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
      for (let index = 0; index < megabytes; index++) controller.enqueue(block);
      controller.enqueue(encoder.encode(tail));
      controller.close();
    },
  }).pipeThrough(new CompressionStream("deflate-raw"));
  const big = new Uint8Array(await new Response(stream).arrayBuffer());
  const entries = [
    ...Object.entries(small).map(([name, text]) => {
      const data = encoder.encode(text);
      return { name: encoder.encode(name), data, size: data.length, method: 0 };
    }),
    {
      name: encoder.encode(bigName),
      data: big,
      size: (head.length + block.length * megabytes + tail.length) >>> 0,
      method: 8,
    },
  ];
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, entry.method, true);
    local.setUint32(18, entry.data.length, true);
    local.setUint32(22, entry.size, true);
    local.setUint16(26, entry.name.length, true);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(10, entry.method, true);
    header.setUint32(20, entry.data.length, true);
    header.setUint32(24, entry.size, true);
    header.setUint16(28, entry.name.length, true);
    header.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), entry.name, entry.data);
    central.push(new Uint8Array(header.buffer), entry.name);
    offset += 30 + entry.name.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint16(8, entries.length, true);
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const bytes = new Uint8Array(all.reduce((sum, part) => sum + part.length, 0));
  let position = 0;
  for (const part of all) {
    bytes.set(part, position);
    position += part.length;
  }
  return bytes;
}
