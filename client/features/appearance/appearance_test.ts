import assert from "node:assert/strict";
import { footerLinksOf, footerRows, parseFooterData, welcomeToSave } from "./appearance.ts";

Deno.test("footer rows: always three, the saved links first", () => {
  const rows = footerRows([{ icon: "Globe", url: "https://a.test" }]);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[0], { icon: "Globe", url: "https://a.test" });
  assert.equal(rows[2].url, "");
});

Deno.test("footer rows: empty rows are left out, non-http(s) addresses are problems", () => {
  const { links, problems } = footerLinksOf([
    { icon: "Globe", url: " https://a.test/x " },
    { icon: "Info", url: "" },
    { icon: "Envelope", url: "javascript:alert(1)" },
  ]);
  assert.deepEqual(links[0], { icon: "Globe", url: "https://a.test/x" });
  assert.deepEqual(problems, [null, null, "appearance.footer.httpOnly"]);
});

Deno.test("welcome messages: trimmed, empty pairs dropped", () => {
  assert.deepEqual(
    welcomeToSave([{ user: " hi ", response: "" }, { user: " ", response: "  " }, {
      user: "",
      response: "yo",
    }]),
    [{ user: "hi", response: "" }, { user: "", response: "yo" }],
  );
});

Deno.test("footer data: unreadable text or unknown icons are no links", () => {
  assert.deepEqual(parseFooterData("nope"), []);
  assert.deepEqual(parseFooterData(null), []);
  assert.deepEqual(
    parseFooterData(
      JSON.stringify([{ icon: "Skull", url: "https://a" }, { icon: "Info", url: "https://b" }]),
    ),
    [{ icon: "Info", url: "https://b" }],
  );
});
