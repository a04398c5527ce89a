import assert from "node:assert/strict";
import { eventLogs } from "../../db/schema.ts";
import { EVENT_LOG_CSV_COLUMNS, EventLogsPage } from "../../shared/api/event_logs.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { logEvent } from "./log.ts";
import { csvField, exportLines } from "./service.ts";

const CSV_HEADER = `${EVENT_LOG_CSV_COLUMNS.join(",")}\r\n`;

async function page(app: TestApp, body: unknown, token?: string) {
  return await app.json("/api/system/event-logs", { json: body, ...(token ? bearer(token) : {}) });
}

async function exported(app: TestApp, type: string, token?: string) {
  const response = await app.request(
    `/api/system/event-logs/export?type=${type}`,
    token ? bearer(token) : {},
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

Deno.test("event logs: pages by offset (a page number) newest first, with the user's name and hasPages", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  await app.deps.db.delete(eventLogs);
  for (let index = 1; index <= 23; index++) {
    await logEvent(app.deps, "user_updated", { index }, index % 2 === 0 ? admin.user.id : null);
  }

  const first = await page(app, { offset: 0 }, admin.token);
  assert.equal(first.status, 200);
  const parsed = EventLogsPage.parse(first.body);
  assert.equal(parsed.logs.length, 10);
  assert.equal(parsed.totalLogs, 23);
  assert.equal(parsed.hasPages, true);
  assert.deepEqual(parsed.logs.map((log) => JSON.parse(log.metadata!).index), [
    23,
    22,
    21,
    20,
    19,
    18,
    17,
    16,
    15,
    14,
  ]);
  assert.deepEqual(parsed.logs[0].user, { username: null }, "no user: no name");
  assert.deepEqual(parsed.logs[1].user, { username: "admin" });
  assert.equal(parsed.logs[1].userId, admin.user.id);
  assert.ok(!Number.isNaN(Date.parse(parsed.logs[0].occurredAt)));

  const last = EventLogsPage.parse((await page(app, { offset: 2 }, admin.token)).body);
  assert.deepEqual(last.logs.map((log) => JSON.parse(log.metadata!).index), [3, 2, 1]);
  assert.equal(last.hasPages, false);
  const beyond = EventLogsPage.parse((await page(app, { offset: 9 }, admin.token)).body);
  assert.deepEqual(beyond.logs, []);
  assert.equal(beyond.hasPages, false);

  const wider = EventLogsPage.parse((await page(app, { offset: 1, limit: 20 }, admin.token)).body);
  assert.equal(wider.logs.length, 3, "limit sets the page size");
  const noBody = EventLogsPage.parse(
    (await app.json("/api/system/event-logs", {
      method: "POST",
      ...bearer(admin.token),
    })).body,
  );
  assert.equal(noBody.logs.length, 10, "an empty body is the first page");

  for (
    const [body, message] of [
      [{ offset: -1 }, "offset must be a whole number, 0 or more."],
      [{ offset: "two" }, "offset must be a whole number, 0 or more."],
      [{ offset: 1.5 }, "offset must be a whole number, 0 or more."],
      [{ limit: 0 }, "limit must be a whole number from 1 to 100."],
      [{ limit: 101 }, "limit must be a whole number from 1 to 100."],
    ] as const
  ) {
    const refused = await page(app, body, admin.token);
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.deepEqual(refused.body, { success: false, error: message });
  }
});

Deno.test("event logs: only an admin may list, clear or export them (managers and default users get 403)", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mona", "manager");
  const user = await addUser(app, admin, "dora", "default");
  const before = (await app.deps.db.select().from(eventLogs)).length;
  assert.ok(before > 0);
  for (const session of [manager, user]) {
    const listed = await page(app, { offset: 0 }, session.token);
    assert.equal(listed.status, 403, session.user.username);
    assert.deepEqual(listed.body, { success: false, error: "You do not have permission to do that." });
    const cleared = await app.json("/api/system/event-logs", { method: "DELETE", ...bearer(session.token) });
    assert.equal(cleared.status, 403);
    for (const type of ["csv", "json"]) {
      const file = await exported(app, type, session.token);
      assert.equal(file.status, 403);
      assert.doesNotMatch(file.text, /login_event/);
    }
  }
  assert.equal((await page(app, { offset: 0 })).status, 401, "no session");
  assert.equal((await exported(app, "csv")).status, 401);
  assert.equal(
    (await app.deps.db.select().from(eventLogs)).length,
    before,
    "refused calls leave the log whole",
  );
});

Deno.test("event logs: clear all empties the log but records who cleared it, as the reference does", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  assert.ok((await app.deps.db.select().from(eventLogs)).length >= 2);
  const cleared = await app.json("/api/system/event-logs", { method: "DELETE", ...bearer(admin.token) });
  assert.equal(cleared.status, 200);
  assert.deepEqual(cleared.body, { success: true, error: null });
  const rows = await app.deps.db.select().from(eventLogs);
  assert.deepEqual(rows.map((row) => [row.event, row.userId, row.metadata]), [
    ["event_logs_cleared", admin.user.id, "{}"],
  ]);
});

Deno.test("event logs export: an empty log is a CSV header alone, or [] in JSON, not an error", async () => {
  await using app = await createTestApp();
  await app.deps.db.delete(eventLogs);
  const csv = await exported(app, "csv");
  assert.equal(csv.status, 200);
  assert.equal(csv.text, CSV_HEADER);
  assert.equal(csv.headers.get("Content-Type"), "text/csv; charset=utf-8");
  assert.match(
    csv.headers.get("Content-Disposition") ?? "",
    /^attachment; filename="event-logs-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const json = await exported(app, "json");
  assert.equal(json.status, 200);
  assert.equal(json.text, "[]");
  assert.deepEqual(JSON.parse(json.text), []);
  assert.equal(json.headers.get("Content-Type"), "application/json; charset=utf-8");
  assert.equal((await exported(app, "")).status, 400);
  const xml = await app.json("/api/system/event-logs/export?type=xml");
  assert.equal(xml.status, 400);
  assert.deepEqual(xml.body, { success: false, error: 'type must be "csv" or "json".' });
  const fallback = await app.request("/api/system/event-logs/export");
  assert.equal(await fallback.text(), CSV_HEADER, "csv without a type");
});

Deno.test("event logs export: every row oldest first, across batches, escaped for spreadsheets", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  await app.deps.db.delete(eventLogs);
  await logEvent(app.deps, "user_created", { username: 'ann, "the admin"\nsecond line' }, admin.user.id);
  await logEvent(app.deps, "invite_created", { id: 4 });
  await logEvent(app.deps, "user_deleted", { username: '=HYPERLINK("x")' }, 999);

  const csv = await exported(app, "csv", admin.token);
  assert.equal(csv.status, 200);
  const lines = csv.text.split("\r\n");
  assert.equal(lines[0], EVENT_LOG_CSV_COLUMNS.join(","));
  assert.match(
    lines[1],
    /^\d+,user_created,admin,\d+,\d{4}-\d{2}-\d{2}T[\d:.]+Z,"\{""username"":""ann, \\""the admin\\""\\nsecond line""\}"$/,
  );
  assert.match(lines[2], /^\d+,invite_created,,,[^,]+,"\{""id"":4\}"$/);
  assert.match(lines[3], /^\d+,user_deleted,,999,/, "a user that is gone has no name");
  assert.equal(lines[4], "");
  assert.equal(lines.length, 5);

  const json = await exported(app, "json", admin.token);
  const rows = JSON.parse(json.text) as Record<string, unknown>[];
  assert.deepEqual(rows.map((row) => [row.event, row.username, row.metadata]), [
    ["user_created", "admin", { username: 'ann, "the admin"\nsecond line' }],
    ["invite_created", null, { id: 4 }],
    ["user_deleted", null, { username: '=HYPERLINK("x")' }],
  ]);

  // Read in batches of two, the rows are the same and in the same order.
  let small = "";
  for await (const part of exportLines(app.deps, "json", 2)) small += part;
  assert.deepEqual(JSON.parse(small), rows);
  let smallCsv = "";
  for await (const part of exportLines(app.deps, "csv", 1)) smallCsv += part;
  assert.equal(smallCsv, csv.text);
});

Deno.test("a CSV field is quoted when it must be, and a formula is neutralised", () => {
  assert.equal(csvField(null), "");
  assert.equal(csvField(12), "12");
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField("=1+2"), "'=1+2");
  assert.equal(csvField("-3"), "'-3");
  assert.equal(csvField("@sum,x"), `"'@sum,x"`);
});
