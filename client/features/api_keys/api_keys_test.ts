import assert from "node:assert/strict";
import { GenerateApiKeyBody } from "../../../shared/api/api_keys.ts";
import {
  apiKeyPaths,
  emptyKeyForm,
  keyBody,
  type KeyForm,
  keyFormProblems,
  parseRateLimit,
  scopeSummary,
  toggled,
} from "./api_keys.ts";

const form = (changes: Partial<KeyForm>): KeyForm => ({ ...emptyKeyForm(), ...changes });

Deno.test("apiKeyPaths() uses /system without accounts and /admin with them", () => {
  assert.deepEqual(
    [apiKeyPaths(false).list, apiKeyPaths(false).generate, apiKeyPaths(false).remove(4)],
    ["/system/api-keys", "/system/generate-api-key", "/system/api-key/4"],
  );
  assert.deepEqual(
    [apiKeyPaths(true).list, apiKeyPaths(true).generate, apiKeyPaths(true).remove(4)],
    ["/admin/api-keys", "/admin/generate-api-key", "/admin/delete-api-key/4"],
  );
});

Deno.test("keyBody() of a full-access key sends no workspaces or permissions, and no limit when empty", () => {
  const body = keyBody(form({ name: "  CI bot ", workspaceIds: new Set([3]), rateLimit: " " }));
  assert.deepEqual(body, {
    name: "CI bot",
    scope: "admin",
    workspaceIds: [],
    permissions: [],
    rateLimit: null,
  });
  assert.equal(GenerateApiKeyBody.safeParse(body).success, true, "the server accepts it");
  assert.equal(keyBody(form({ name: "   " })).name, null, "a blank name is no name");
});

Deno.test("keyBody() of a limited key sends its workspaces (sorted) and permissions (in order) and its limit", () => {
  const body = keyBody(form({
    scope: "workspaces",
    workspaceIds: new Set([9, 2]),
    permissions: new Set(["read", "documents"]),
    rateLimit: "60",
  }));
  assert.deepEqual(body, {
    name: null,
    scope: "workspaces",
    workspaceIds: [2, 9],
    permissions: ["documents", "read"],
    rateLimit: 60,
  });
  assert.equal(GenerateApiKeyBody.safeParse(body).success, true);
  assert.deepEqual(keyBody(form({ scope: "read", permissions: new Set(["chat"]) })).permissions, []);
});

Deno.test("keyFormProblems() names what the server would refuse, field by field", () => {
  assert.deepEqual(keyFormProblems(emptyKeyForm()), {});
  assert.deepEqual(keyFormProblems(form({ scope: "workspaces", permissions: new Set() })), {
    workspaceIds: "noWorkspace",
    permissions: "noPermission",
  });
  assert.deepEqual(keyFormProblems(form({ scope: "read", permissions: new Set() })), {}, "only limited keys");
  assert.deepEqual(keyFormProblems(form({ name: "x".repeat(101) })), { name: "nameTooLong" });
  for (const bad of ["0", "-5", "1.5", "abc", "10001"]) {
    assert.deepEqual(keyFormProblems(form({ rateLimit: bad })), { rateLimit: "rateLimit" }, bad);
    const body = { ...keyBody(emptyKeyForm()), rateLimit: Number(bad) };
    assert.equal(GenerateApiKeyBody.safeParse(body).success, false, `the server refuses ${bad} too`);
  }
});

Deno.test("parseRateLimit() takes whole numbers from 1 to 10000", () => {
  assert.equal(parseRateLimit(" 1 "), 1);
  assert.equal(parseRateLimit("10000"), 10000);
  assert.equal(parseRateLimit("10001"), null);
  assert.equal(parseRateLimit("0"), null);
  assert.equal(parseRateLimit("1e3"), null);
  assert.equal(parseRateLimit(""), null);
});

Deno.test("scopeSummary() lists a limited key's workspaces by name and its permissions in order", () => {
  assert.deepEqual(
    scopeSummary({
      scope: "workspaces",
      workspaces: [{ id: 2, slug: "b", name: "Zeta" }, { id: 1, slug: "a", name: "alpha" }],
      permissions: ["read", "chat"],
    }),
    { scope: "workspaces", workspaces: ["alpha", "Zeta"], permissions: ["chat", "read"] },
  );
  assert.deepEqual(
    scopeSummary({ scope: "read", workspaces: [{ id: 1, slug: "a", name: "A" }], permissions: ["chat"] }),
    { scope: "read", workspaces: [], permissions: [] },
    "an instance-wide key names no workspace",
  );
});

Deno.test("toggled() adds a missing value and removes a present one, leaving the original alone", () => {
  const start = new Set([1, 2]);
  assert.deepEqual([...toggled(start, 3)], [1, 2, 3]);
  assert.deepEqual([...toggled(start, 1)], [2]);
  assert.deepEqual([...start], [1, 2]);
});
