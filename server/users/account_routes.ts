import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readJson } from "../http/body.ts";
import { AppError, fail } from "../errors.ts";
import { writeFileAtomic } from "../storage.ts";
import { sessionFor } from "../auth/service.ts";
import { findUserById } from "./repo.ts";
import { updateOwnAccount } from "./service.ts";
import { MAX_PICTURE_BYTES, pictureKind, pictureType } from "./images.ts";

/** The caller's own account: profile fields and picture (spec 01 §2.5, §7.1). */
export function accountRoutes(deps: Deps) {
  const pictureLimit = bodyLimit({
    maxSize: MAX_PICTURE_BYTES + 64 * 1024,
    onError: () => {
      throw new AppError("too_large", "The picture is too large: the limit is 5 MB.");
    },
  });
  const removePicture = async (filename: string | null) => {
    if (filename) await Deno.remove(join(deps.paths.profilePictures, filename)).catch(() => {});
  };

  return new Hono<AppEnv>()
    .post("/system/user", async (c) => {
      const body = await readJson(c) as Record<string, unknown>;
      const { user, passwordChanged } = await updateOwnAccount(deps, c.var.actor, body ?? {});
      return c.json({
        success: true,
        error: null,
        token: passwordChanged ? await sessionFor(deps, user) : undefined,
      });
    })
    .post("/system/upload-pfp", pictureLimit, async (c) => {
      const userId = c.var.actor.userId ??
        fail("invalid_input", "There are no accounts in single-user mode.");
      let form: Record<string, unknown>;
      try {
        form = await c.req.parseBody();
      } catch (error) {
        if (error instanceof AppError) throw error;
        fail("invalid_input", "The upload is not a valid multipart form.");
      }
      const file = form.file;
      if (!(file instanceof File)) {
        fail("invalid_input", 'No file was sent: use a multipart form with the field "file".');
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = pictureKind(bytes);
      const filename = `${crypto.randomUUID()}${kind.extension}`;
      await writeFileAtomic(join(deps.paths.profilePictures, filename), bytes);
      const previous = await findUserById(deps, userId);
      await deps.db.update(users).set({ pfpFilename: filename, lastUpdatedAt: new Date() }).where(
        eq(users.id, userId),
      );
      await removePicture(previous?.pfpFilename ?? null);
      return c.json({ success: true, error: null });
    })
    .get("/system/pfp/:id", async (c) => {
      // Only the caller's own picture, as the reference; anything else is "no picture".
      const id = Number(c.req.param("id"));
      if (!Number.isInteger(id) || id !== c.var.actor.userId) return c.body(null, 204);
      const user = await findUserById(deps, id);
      if (!user?.pfpFilename) return c.body(null, 204);
      try {
        const bytes = await Deno.readFile(join(deps.paths.profilePictures, user.pfpFilename));
        return c.body(bytes, 200, {
          "Content-Type": pictureType(user.pfpFilename),
          "Cache-Control": "private, no-cache",
        });
      } catch {
        return c.body(null, 204);
      }
    })
    .delete("/system/remove-pfp", async (c) => {
      const userId = c.var.actor.userId ??
        fail("invalid_input", "There are no accounts in single-user mode.");
      const user = await findUserById(deps, userId);
      await deps.db.update(users).set({ pfpFilename: null, lastUpdatedAt: new Date() }).where(
        eq(users.id, userId),
      );
      await removePicture(user?.pfpFilename ?? null);
      return c.json({ success: true, error: null });
    });
}
