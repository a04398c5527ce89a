import assert from "node:assert/strict";
import type { TestApp } from "./test_app.ts";

export const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

export interface Session {
  token: string;
  user: { id: number; username: string; role: string };
  recoveryCodes?: string[];
}

/** Logs in through the API and returns the session; fails the test when the login is refused. */
export async function login(app: TestApp, username: string, password: string): Promise<Session> {
  const answer = await app.json<Session & { valid: boolean; message: string | null }>("/api/request-token", {
    json: { username, password },
  });
  assert.equal(answer.status, 200, `login as ${username}: ${answer.body.message}`);
  return answer.body;
}

/** Turns on multi-user mode with an admin "admin" and returns the admin's session. */
export async function multiUserInstance(app: TestApp, password = "admin-password"): Promise<Session> {
  const enabled = await app.json("/api/system/enable-multi-user", { json: { username: "admin", password } });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return await login(app, "admin", password);
}

/** Creates a user as the given admin or manager and logs them in. */
export async function addUser(
  app: TestApp,
  by: Session,
  username: string,
  role: "admin" | "manager" | "default",
  password = `${username}-password`,
): Promise<Session> {
  const created = await app.json("/api/admin/users/new", {
    ...bearer(by.token),
    json: { username, password, role },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return await login(app, username, password);
}
