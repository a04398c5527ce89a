import assert from "node:assert/strict";
import { safeRedirect } from "./session.ts";

const ORIGIN = "http://127.0.0.1:3001";

Deno.test("safeRedirect() keeps a path of this site with its query and fragment", () => {
  assert.equal(safeRedirect("/workspace/notes?x=1#top", ORIGIN), "/workspace/notes?x=1#top");
  assert.equal(safeRedirect("/", ORIGIN), "/");
  assert.equal(safeRedirect("/settings/../workspace/a", ORIGIN), "/workspace/a");
});

Deno.test("open redirect: safeRedirect() refuses every target the browser would take off this site", () => {
  const hostile = [
    "//attacker.test",
    "/\\attacker.test",
    "\\/attacker.test",
    "/\t/attacker.test", // a tab is dropped by the URL parser: "//attacker.test"
    "/\n/attacker.test", // so is a newline (what "?redirectTo=/%0A/attacker.test" decodes to)
    "/\r\n/attacker.test",
    "/\\\\attacker.test",
    "/.//attacker.test", // dot segments resolve to "//attacker.test"
    "/..//attacker.test",
    "/a/..//attacker.test",
    "/./\\attacker.test",
    " //attacker.test",
    "https://attacker.test/",
    "javascript:alert(1)",
    "attacker.test",
    "",
    null,
    undefined,
  ];
  for (const target of hostile) assert.equal(safeRedirect(target, ORIGIN), "/", JSON.stringify(target));
});
