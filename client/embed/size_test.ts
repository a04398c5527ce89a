import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const WIDGET = fileURLToPath(new URL("../../dist/static/embed/lectern-chat-widget.min.js", import.meta.url));
/** The budget for the widget script, compressed as a server sends it. */
const MAX_GZIP_BYTES = 40 * 1024;

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const compressed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(compressed).arrayBuffer()).byteLength;
}

Deno.test("the built chat widget script is at most 40 KB gzipped and carries no React nor the UI's other texts", async () => {
  let script: Uint8Array<ArrayBuffer>;
  try {
    script = await Deno.readFile(WIDGET);
  } catch {
    throw new Error(`The chat widget is not built at ${WIDGET}: run "deno task build".`);
  }
  const size = await gzipSize(script);
  console.log(`chat widget: ${script.byteLength} bytes, ${size} bytes gzipped (budget ${MAX_GZIP_BYTES})`);
  assert.ok(size <= MAX_GZIP_BYTES, `the widget is ${size} bytes gzipped, over the ${MAX_GZIP_BYTES} budget`);
  const text = new TextDecoder().decode(script);
  assert.ok(!text.includes("react.element"), "no React");
  assert.ok(!text.includes("Workspaces and settings"), "only the chatWidget texts of locales/en.json");
  assert.ok(text.includes("Powered by Lectern"), "the widget's own texts");
});
