import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { MAX_LOGO_BYTES } from "../../shared/api/appearance.ts";
import { SVG_POLICY } from "./routes.ts";

const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
]);

function logoForm(bytes: Uint8Array | string, name = "logo.png", type = "image/png", theme?: string) {
  const form = new FormData();
  form.append("logo", new File([bytes as BlobPart], name, { type }));
  if (theme) form.append("theme", theme);
  return form;
}

async function upload(app: TestApp, session: Session | null, form: FormData, query = "") {
  const response = await app.request(`/api/system/upload-logo${query}`, {
    method: "POST",
    body: form,
    ...(session ? bearer(session.token) : {}),
  });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

/** An instance with an admin, a manager and a default user. */
async function team(app: TestApp) {
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "manny", "manager");
  const member = await addUser(app, admin, "dora", "default");
  return { admin, manager, member };
}

Deno.test("logo: upload, serve with X-Is-Custom-Logo, dark variant, remove; only an admin changes it", async () => {
  await using app = await createTestApp();
  const { admin, manager, member } = await team(app);

  const before = await app.request("/api/system/logo");
  assert.equal(before.headers.get("x-is-custom-logo"), "false");
  assert.equal(before.headers.get("content-security-policy"), SVG_POLICY);
  assert.match(await before.text(), /^<svg/);
  assert.deepEqual((await app.json("/api/system/is-default-logo")).body, {
    isDefaultLogo: true,
    light: false,
    dark: false,
    version: null,
  });

  for (const session of [manager, member]) {
    const refused = await upload(app, session, logoForm(PNG));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.message, refused.body.error);
    const removal = await app.request("/api/system/remove-logo", bearer(session.token));
    assert.equal(removal.status, 403);
    await removal.body?.cancel();
  }
  assert.equal((await upload(app, null, logoForm(PNG))).status, 401);

  const uploaded = await upload(app, admin, logoForm(PNG, "../../etc/passwd.png"));
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  assert.equal(uploaded.body.message, "Logo uploaded successfully.");
  const served = await app.request("/api/system/logo?theme=light");
  assert.equal(served.headers.get("x-is-custom-logo"), "true");
  assert.equal(served.headers.get("content-type"), "image/png");
  assert.equal(served.headers.get("x-content-type-options"), "nosniff");
  assert.deepEqual(new Uint8Array(await served.arrayBuffer()), PNG);
  assert.equal((await app.json("/api/system/is-default-logo")).body.isDefaultLogo, false);
  // Stored under a name the server chose, in the assets folder; the uploaded name never became a path.
  const stored = [...Deno.readDirSync(app.deps.paths.assets)].filter((entry) => entry.isFile).map((e) =>
    e.name
  );
  assert.equal(stored.length, 1);
  assert.match(stored[0], /^logo-[0-9a-f-]{36}\.png$/);

  // A dark variant (an SVG) for dark themes; the light one stays.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 2"><rect width="8" height="2"/></svg>`;
  const dark = await upload(app, admin, logoForm(svg, "dark.svg", "image/svg+xml"), "?theme=dark");
  assert.equal(dark.status, 200);
  const darkServed = await app.request("/api/system/logo?theme=dark");
  assert.equal(darkServed.headers.get("content-type"), "image/svg+xml");
  assert.equal(darkServed.headers.get("content-security-policy"), SVG_POLICY);
  assert.match(await darkServed.text(), /<rect width="8" height="2">/);
  assert.equal((await app.request("/api/system/logo?theme=light")).headers.get("content-type"), "image/png");

  // Removing the dark variant keeps the main logo; removing without a theme goes back to the default.
  const removedDark = await app.json("/api/system/remove-logo?theme=dark", bearer(admin.token));
  assert.equal(removedDark.status, 200);
  assert.equal((await app.request("/api/system/logo?theme=dark")).headers.get("content-type"), "image/png");
  const removed = await app.json<Record<string, unknown>>("/api/system/remove-logo", bearer(admin.token));
  assert.equal(removed.body.message, "Logo removed successfully.");
  assert.equal((await app.request("/api/system/logo")).headers.get("x-is-custom-logo"), "false");
  assert.equal([...Deno.readDirSync(app.deps.paths.assets)].filter((entry) => entry.isFile).length, 0);
});

Deno.test("logo: oversized, empty, non-image and GIF uploads are refused with a sentence", async () => {
  await using app = await createTestApp();
  const { admin } = await team(app);
  const big = new Uint8Array(MAX_LOGO_BYTES + 1);
  big.set(PNG);
  const cases: [FormData, number, RegExp][] = [
    [logoForm(big), 413, /too large: the limit is 2 MB\.$/],
    [logoForm(new Uint8Array()), 400, /empty\.$/],
    [logoForm("just some text", "logo.png"), 400, /PNG, JPEG, WebP or SVG image\.$/],
    [logoForm("<html><script>alert(1)</script></html>", "logo.svg", "image/svg+xml"), 400, /PNG, JPEG, WebP/],
    [
      logoForm(new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), "logo.gif", "image/gif"),
      400,
      /PNG, JPEG/,
    ],
  ];
  for (const [form, status, message] of cases) {
    const refused = await upload(app, admin, form);
    assert.equal(refused.status, status, JSON.stringify(refused.body));
    assert.match(String(refused.body.error), message);
  }
  const noFile = new FormData();
  noFile.append("file", new File([PNG], "logo.png"));
  const missing = await upload(app, admin, noFile);
  assert.equal(missing.status, 400);
  assert.match(String(missing.body.message), /No logo file provided/);
  assert.equal((await app.request("/api/system/logo")).headers.get("x-is-custom-logo"), "false");
});

Deno.test("logo: hostile SVGs are stored and served without script, handlers or outside references", async () => {
  await using app = await createTestApp();
  const { admin } = await team(app);
  const hostile = [
    `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="4"/></svg>`,
    `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" onmouseover="alert(2)"/></svg>`,
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><circle r="1"/></a><rect width="4"/></svg>`,
    `<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/pixel.png" width="1" height="1"/><rect width="4"/></svg>`,
    `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></body></foreignObject><rect width="4"/></svg>`,
  ];
  for (const svg of hostile) {
    const uploaded = await upload(app, admin, logoForm(svg, "logo.svg", "image/svg+xml"));
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const served = await app.request("/api/system/logo?theme=light");
    assert.equal(served.headers.get("content-security-policy"), SVG_POLICY);
    assert.equal(served.headers.get("x-content-type-options"), "nosniff");
    const text = await served.text();
    assert.doesNotMatch(text, /script|onload|onmouseover|javascript:|evil\.example|foreignObject/i, svg);
    assert.match(text, /<rect width="4">/);
  }
  const doctype = await upload(
    app,
    admin,
    logoForm(
      `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>`,
      "x.svg",
      "image/svg+xml",
    ),
  );
  assert.equal(doctype.status, 400);
  assert.match(String(doctype.body.error), /DOCTYPE/);
});

Deno.test("branding texts: saved by an admin through system-preferences, read publicly and cached an hour", async () => {
  await using app = await createTestApp();
  const { admin, manager, member } = await team(app);
  const save = (session: Session, json: unknown) =>
    app.json<Record<string, unknown>>("/api/admin/system-preferences", { ...bearer(session.token), json });

  const links = [{ icon: "GithubLogo", url: "https://example.com/code" }, {
    icon: "Info",
    url: "http://x.test/",
  }];
  const saved = await save(admin, {
    custom_app_name: "Acme Docs",
    support_email: "help@acme.test",
    footer_data: JSON.stringify(links),
    meta_page_title: "Acme knowledge",
  });
  assert.deepEqual(saved, { status: 200, body: { success: true, error: null } });
  for (const session of [manager, member]) {
    const refused = await save(session, { custom_app_name: "Mine" });
    assert.equal(refused.status, 403);
  }

  const name = await app.request("/api/system/custom-app-name");
  assert.equal(name.headers.get("cache-control"), "public, max-age=3600");
  assert.equal((await name.json()).customAppName, "Acme Docs");
  const email = await app.request("/api/system/support-email");
  assert.equal(email.headers.get("cache-control"), "public, max-age=3600");
  assert.equal((await email.json()).supportEmail, "help@acme.test");
  const footer = await app.request("/api/system/footer-data");
  assert.equal(footer.headers.get("cache-control"), "public, max-age=3600");
  assert.deepEqual(JSON.parse((await footer.json()).footerData), links);

  // The settings screen reads them back (managers may read the appearance labels, as the reference allows).
  const labels = "custom_app_name,support_email,footer_data,meta_page_title,meta_page_favicon";
  for (const session of [admin, manager]) {
    const read = await app.json<{ settings: Record<string, unknown> }>(
      `/api/admin/system-preferences-for?labels=${labels}`,
      bearer(session.token),
    );
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.settings, {
      custom_app_name: "Acme Docs",
      support_email: "help@acme.test",
      footer_data: JSON.stringify(links),
      meta_page_title: "Acme knowledge",
      meta_page_favicon: null,
    });
  }
  assert.equal(
    (await app.json(`/api/admin/system-preferences-for?labels=${labels}`, bearer(member.token))).status,
    403,
  );

  // The page title and the login screen use the name.
  const login = await (await app.request("/login")).text();
  assert.match(login, /<title>[^<]*\| Acme knowledge<\/title>/);
  assert.match(login, /Acme Docs/);

  // An empty value clears a label; a label left out keeps its value.
  await save(admin, { custom_app_name: "", meta_page_title: null });
  assert.equal(
    (await app.json<{ customAppName: unknown }>("/api/system/custom-app-name")).body.customAppName,
    null,
  );
  assert.equal(
    (await app.json<{ supportEmail: unknown }>("/api/system/support-email")).body.supportEmail,
    "help@acme.test",
  );
  assert.match(await (await app.request("/login")).text(), /<title>[^<]*\| Lectern<\/title>/);
});

Deno.test("branding texts: footer links must be http(s), at most 3; a bad email or name is refused", async () => {
  await using app = await createTestApp();
  const { admin } = await team(app);
  const save = (json: unknown) =>
    app.json<Record<string, unknown>>("/api/admin/system-preferences", { ...bearer(admin.token), json });
  const link = (url: string) => JSON.stringify([{ icon: "Globe", url }]);
  const cases: [unknown, RegExp][] = [
    [{ footer_data: link("javascript:alert(1)") }, /http:\/\/ or https:\/\//],
    [{ footer_data: link("data:text/html,<script>alert(1)</script>") }, /http:\/\/ or https:\/\//],
    [{ footer_data: link("ftp://example.com") }, /http:\/\/ or https:\/\//],
    [{ footer_data: JSON.stringify(Array(4).fill({ icon: "Globe", url: "https://a.test" })) }, /At most 3/],
    [{ footer_data: JSON.stringify([{ icon: "Skull", url: "https://a.test" }]) }, /icon must be one of/],
    [{ footer_data: "not json" }, /JSON text/],
    [{ support_email: "not an email" }, /email address/],
    [{ custom_app_name: "x".repeat(81) }, /at most 80/],
    [{ meta_page_favicon: "https://evil.example/icon.png" }, /not offered/],
    [{ logo_filename: "../../etc/passwd" }, /logo_filename/],
  ];
  for (const [json, message] of cases) {
    const refused = await save(json);
    assert.equal(refused.status, 400, JSON.stringify(json));
    assert.match(String(refused.body.error), message);
    assert.match(String(refused.body.error), /\.$/);
  }
  assert.equal((await app.json<{ footerData: string }>("/api/system/footer-data")).body.footerData, "[]");
  // Refusals leave every label as it was: nothing of a refused body was saved.
  assert.equal(
    (await app.json<{ customAppName: unknown }>("/api/system/custom-app-name")).body.customAppName,
    null,
  );
});

Deno.test("welcome messages: everyone signed in reads them, only an admin sets them", async () => {
  await using app = await createTestApp();
  const { admin, manager, member } = await team(app);
  const messages = [
    { user: "What is this?", response: "The team's handbook." },
    { user: "", response: "Ask me anything." },
    { user: "  ", response: "" },
  ];
  const saved = await app.json("/api/system/set-welcome-messages", {
    ...bearer(admin.token),
    json: { messages },
  });
  assert.equal(saved.status, 200);
  for (const session of [manager, member]) {
    const refused = await app.json<Record<string, unknown>>("/api/system/set-welcome-messages", {
      ...bearer(session.token),
      json: { messages: [] },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, refused.body.error);
  }
  for (const session of [admin, manager, member]) {
    const read = await app.json("/api/system/welcome-messages", bearer(session.token));
    assert.deepEqual(read.body, { success: true, welcomeMessages: messages.slice(0, 2) });
  }
  assert.equal((await app.json("/api/system/welcome-messages")).status, 401);

  const bad = await app.json<Record<string, unknown>>("/api/system/set-welcome-messages", {
    ...bearer(admin.token),
    json: { messages: "hello" },
  });
  assert.equal(bad.status, 400);
  assert.match(String(bad.body.message), /Expected an array of messages\.$/);
  // A body without the list is a mistake, not "clear them all" (the reference's default): the messages stay.
  for (const body of [{}, { message: [] }]) {
    const missing = await app.json<Record<string, unknown>>("/api/system/set-welcome-messages", {
      ...bearer(admin.token),
      json: body,
    });
    assert.equal(missing.status, 400);
    assert.match(String(missing.body.message), /Expected an array of messages\.$/);
  }
  assert.deepEqual((await app.json("/api/system/welcome-messages", bearer(member.token))).body, {
    success: true,
    welcomeMessages: messages.slice(0, 2),
  });
  const cleared = await app.json("/api/system/set-welcome-messages", {
    ...bearer(admin.token),
    json: { messages: [] },
  });
  assert.equal(cleared.status, 200);
  assert.deepEqual((await app.json("/api/system/welcome-messages", bearer(member.token))).body, {
    success: true,
    welcomeMessages: [],
  });
});

Deno.test("single-user instance: the open instance's visitor is its admin and may change the appearance", async () => {
  await using app = await createTestApp();
  const uploaded = await upload(app, null, logoForm(PNG));
  assert.equal(uploaded.status, 200);
  const saved = await app.json("/api/admin/system-preferences", { json: { custom_app_name: "Solo" } });
  assert.equal(saved.status, 200);
  assert.equal(
    (await app.json<{ customAppName: string }>("/api/system/custom-app-name")).body.customAppName,
    "Solo",
  );
});
