import assert from "node:assert/strict";
import { stubLocation } from "../../../testing/stubs.ts";
import { inviteUrl } from "./invite_url.ts";

Deno.test("inviteUrl() is /accept-invite/{code} on this page's origin, the code encoded", () => {
  using _location = stubLocation("http://127.0.0.1:3001/settings/invites?x=1");
  assert.equal(inviteUrl("ab12cd"), "http://127.0.0.1:3001/accept-invite/ab12cd");
  assert.equal(inviteUrl("a/b?c#d"), "http://127.0.0.1:3001/accept-invite/a%2Fb%3Fc%23d");
});
