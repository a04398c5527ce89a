import assert from "node:assert/strict";
import { checkImages, MAX_IMAGE_BYTES, MAX_IMAGES, toRequestAttachments } from "./attachments.ts";

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

Deno.test("checkImages() accepts the server's image types and names why it refuses the others", () => {
  const { accepted, rejected } = checkImages([
    file("a.png", "image/png"),
    file("b.jpg", "image/jpeg"),
    file("c.pdf", "application/pdf"),
    file("d.webp", "image/webp", MAX_IMAGE_BYTES + 1),
    file("e.gif", "image/gif", MAX_IMAGE_BYTES),
  ], 0);
  assert.deepEqual(accepted.map((f) => f.name), ["a.png", "b.jpg", "e.gif"]);
  assert.deepEqual(rejected, [{ name: "c.pdf", reason: "type" }, { name: "d.webp", reason: "size" }]);
});

Deno.test("checkImages() counts the images already attached against the limit", () => {
  const files = [file("1.png", "image/png"), file("2.png", "image/png"), file("3.png", "image/png")];
  const { accepted, rejected } = checkImages(files, MAX_IMAGES - 2);
  assert.deepEqual(accepted.map((f) => f.name), ["1.png", "2.png"]);
  assert.deepEqual(rejected, [{ name: "3.png", reason: "count" }]);
  assert.deepEqual(checkImages(files, MAX_IMAGES).accepted, []);
});

Deno.test("toRequestAttachments() sends each image as name, mime and contentString", () => {
  assert.deepEqual(
    toRequestAttachments([{ name: "a.png", mime: "image/png", dataUrl: "data:image/png;base64,AA==" }]),
    [{ name: "a.png", mime: "image/png", contentString: "data:image/png;base64,AA==" }],
  );
});
