import assert from "node:assert/strict";
import { defaultMessages, httpUrl, imageUrl, parseOptions, readableOn } from "./options.ts";

const ID = "6F1C2C1E-8A4B-4C1D-9E2F-0A1B2C3D4E5F";
const BASE = { embedId: ID, baseApiUrl: "http://127.0.0.1:3001/api/embed/" };

Deno.test("options: the embed id and the API address are required and checked", () => {
  assert.deepEqual(parseOptions({}), {
    ok: false,
    error: "The chat widget needs data-embed-id: the embed's id, a UUID.",
  });
  assert.equal(parseOptions({ embedId: "42", baseApiUrl: BASE.baseApiUrl }).ok, false);
  const noBase = parseOptions({ embedId: ID });
  assert.equal(noBase.ok, false);
  assert.match(noBase.ok ? "" : noBase.error, /data-base-api-url/);
  assert.equal(parseOptions({ embedId: ID, baseApiUrl: "javascript:alert(1)" }).ok, false);
  assert.equal(parseOptions({ embedId: ID, baseApiUrl: "/api/embed" }).ok, false, "an absolute address");
});

Deno.test("options: defaults, with the id lower-cased and the address without its trailing slash", () => {
  const parsed = parseOptions(BASE);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.ignored, []);
  const { options } = parsed;
  assert.equal(options.embedId, ID.toLowerCase());
  assert.equal(options.baseApiUrl, "http://127.0.0.1:3001/api/embed");
  assert.equal(options.chatIcon, "plus");
  assert.equal(options.position, "bottom-right");
  assert.equal(options.theme, "auto");
  assert.equal(options.language, "en");
  assert.equal(options.openOnLoad, false);
  assert.equal(options.noSponsor, false);
  assert.equal(options.showThoughts, false);
  assert.deepEqual(options.defaultMessages, []);
  for (
    const key of [
      "buttonColor",
      "brandImageUrl",
      "greeting",
      "windowWidth",
      "textSize",
      "temperature",
    ] as const
  ) {
    assert.equal(options[key], null, key);
  }
});

Deno.test("options: the reference's data-* options are read", () => {
  const parsed = parseOptions({
    ...BASE,
    chatIcon: "chatBubble",
    buttonColor: "#2563eb",
    userBgColor: "rgb(10, 20, 30)",
    assistantBgColor: "teal",
    brandImageUrl: "https://shop.example/logo.png",
    assistantName: "  Shop helper  ",
    greeting: "Ask about our cheese.",
    position: "top-left",
    windowWidth: "360px",
    windowHeight: "80vh",
    textSize: "16",
    language: "de",
    sendMessageText: "Frag uns",
    resetChatText: "Neu anfangen",
    noSponsor: "",
    supportEmail: "help@shop.example",
    username: "visitor-7",
    defaultMessages: "What do you sell?, Where are you? ,",
    openOnLoad: "on",
    prompt: "Be brief.",
    model: "small",
    temperature: "0.3",
    theme: "dark",
    showThoughts: "true",
  });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.ignored, []);
  const { options } = parsed;
  assert.equal(options.chatIcon, "chatBubble");
  assert.equal(options.buttonColor, "#2563eb");
  assert.equal(options.userBgColor, "rgb(10, 20, 30)");
  assert.equal(options.assistantBgColor, "teal");
  assert.equal(options.brandImageUrl, "https://shop.example/logo.png");
  assert.equal(options.assistantName, "Shop helper");
  assert.equal(options.position, "top-left");
  assert.equal(options.windowWidth, "360px");
  assert.equal(options.windowHeight, "80vh");
  assert.equal(options.textSize, 16);
  assert.equal(options.language, "de");
  assert.equal(options.noSponsor, true, "a present flag is on");
  assert.equal(options.supportEmail, "help@shop.example");
  assert.deepEqual(options.defaultMessages, ["What do you sell?", "Where are you?"]);
  assert.equal(options.openOnLoad, true);
  assert.equal(options.temperature, 0.3);
  assert.equal(options.theme, "dark");
  assert.equal(options.showThoughts, true);
});

Deno.test("options: values that could inject CSS or open scripts are ignored and named", () => {
  const parsed = parseOptions({
    ...BASE,
    buttonColor: "red; background:url(https://evil.example/x)",
    userBgColor: "expression(alert(1))",
    windowWidth: "100px;position:absolute",
    windowHeight: "calc(100vh)",
    brandImageUrl: "javascript:alert(1)",
    assistantIcon: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
    sponsorLink: "javascript:alert(1)",
    supportEmail: "not an email",
    textSize: "200",
    temperature: "hot",
    chatIcon: "skull",
    position: "middle",
    theme: "neon",
    language: "<b>",
  });
  assert.ok(parsed.ok);
  const { options, ignored } = parsed;
  assert.deepEqual(ignored.sort(), [
    "assistantIcon",
    "brandImageUrl",
    "buttonColor",
    "chatIcon",
    "language",
    "position",
    "sponsorLink",
    "supportEmail",
    "temperature",
    "textSize",
    "theme",
    "userBgColor",
    "windowHeight",
    "windowWidth",
  ]);
  assert.equal(options.buttonColor, null);
  assert.equal(options.windowWidth, null);
  assert.equal(options.brandImageUrl, null);
  assert.equal(options.assistantIcon, null, "SVG data URLs can carry script");
  assert.equal(options.sponsorLink, null);
  assert.equal(options.chatIcon, "plus");
  assert.equal(options.position, "bottom-right");
  assert.equal(options.language, "en");
});

Deno.test("options: flags follow the reference's on/off spelling", () => {
  const off = parseOptions({ ...BASE, openOnLoad: "off", noSponsor: "false", showThoughts: "off" });
  assert.ok(off.ok);
  assert.equal(off.options.openOnLoad, false);
  assert.equal(off.options.noSponsor, false);
  assert.equal(off.options.showThoughts, false);
});

Deno.test("options: helpers for addresses, suggestions and readable text colours", () => {
  assert.equal(httpUrl("https://a.example/x"), "https://a.example/x");
  assert.equal(httpUrl("ftp://a.example/"), null);
  assert.equal(httpUrl("nonsense"), null);
  assert.equal(imageUrl("data:image/png;base64,iVBORw0KGgo="), "data:image/png;base64,iVBORw0KGgo=");
  assert.equal(imageUrl("data:text/html;base64,PGI+"), null);
  assert.deepEqual(defaultMessages(" a , ,b"), ["a", "b"]);
  assert.equal(defaultMessages(Array.from({ length: 20 }, (_, i) => `q${i}`).join(",")).length, 10);
  assert.equal(readableOn("#ffffff"), "#000");
  assert.equal(readableOn("#fff"), "#000");
  assert.equal(readableOn("#262626"), "#fff");
  assert.equal(readableOn("#2563eb"), "#fff");
  assert.equal(readableOn("#facc15"), "#000");
  assert.equal(readableOn("teal"), "#fff");
});
