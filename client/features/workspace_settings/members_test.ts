import assert from "node:assert/strict";
import { addMember, type EditedMember, removeMember, setMemberRole } from "./members.ts";

const members: EditedMember[] = [
  { userId: 1, username: "ada", role: "owner" },
  { userId: 3, username: "cleo", role: "viewer" },
];

Deno.test("the members editor adds viewers once, changes roles and removes members", () => {
  const added = addMember(members, { id: 2, username: "bea" });
  assert.deepEqual(added.map((member) => [member.username, member.role]), [
    ["ada", "owner"],
    ["bea", "viewer"],
    ["cleo", "viewer"],
  ]);
  assert.equal(addMember(added, { id: 2, username: "bea" }).length, 3);
  assert.equal(setMemberRole(added, 2, "editor").find((member) => member.userId === 2)?.role, "editor");
  assert.deepEqual(removeMember(added, 1).map((member) => member.userId), [2, 3]);
  assert.equal(members.length, 2, "the list given is not changed");
});
