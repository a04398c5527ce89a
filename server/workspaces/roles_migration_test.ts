import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import migrations from "../../db/migrations.gen.ts";
import { migrate } from "../../db/migrate.ts";

// Found by name, not number: the migration that gives memberships a role and workspaces a visibility.
const rolesAt = migrations.findIndex((migration) => migration.tag.endsWith("_workspace_roles"));

Deno.test("the workspace roles migration makes every existing membership a viewer and loses nothing", async () => {
  assert.ok(rolesAt > 0, "the workspace_roles migration is in db/migrations");
  const directory = await Deno.makeTempDir();
  const client = createClient({ url: `file:${directory}/lectern.db` });
  try {
    await migrate(client, migrations.slice(0, rolesAt));
    await client.executeMultiple(`
      INSERT INTO users (id, username, password, role) VALUES (1, 'ada', 'x', 'admin'), (2, 'dora', 'x', 'default'),
        (3, 'eve', 'x', 'default');
      INSERT INTO workspaces (id, name, slug) VALUES (1, 'Team', 'team'), (2, 'Vault', 'vault');
      INSERT INTO workspace_users (user_id, workspace_id) VALUES (2, 1), (3, 1), (3, 2);
    `);
    const before = await client.execute("SELECT id, user_id, workspace_id FROM workspace_users ORDER BY id");

    const result = await migrate(client, migrations);
    assert.deepEqual(result.applied, migrations.slice(rolesAt).map((migration) => migration.tag));

    const after = await client.execute(
      "SELECT id, user_id, workspace_id, role FROM workspace_users ORDER BY id",
    );
    assert.deepEqual(
      after.rows.map((row) => [row.id, row.user_id, row.workspace_id]),
      before.rows.map((row) => [row.id, row.user_id, row.workspace_id]),
      "every membership is kept",
    );
    assert.deepEqual(after.rows.map((row) => row.role), ["viewer", "viewer", "viewer"]);
    const spaces = await client.execute("SELECT slug, visible_to_all FROM workspaces ORDER BY id");
    assert.deepEqual(spaces.rows.map((row) => [row.slug, row.visible_to_all]), [["team", 0], ["vault", 0]]);
  } finally {
    client.close();
    await Deno.remove(directory, { recursive: true });
  }
});
