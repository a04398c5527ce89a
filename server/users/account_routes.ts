import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { AccountUpdateInput } from "../../shared/api/auth.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { fail } from "../errors.ts";
import { writeFileAtomic } from "../storage.ts";
import { sessionFor } from "../auth/service.ts";
import { findUserById } from "./repo.ts";
import { setProfilePicture, updateOwnAccount } from "./service.ts";
import { MAX_PICTURE_BYTES, readStoredPicture, removeStoredPicture, storeUploadedPicture } from "./images.ts";

const noAccounts = () => fail("invalid_input", "There are no accounts in single-user mode.");

/** The caller's own account: profile fields and picture. */
export function accountRoutes(deps: Deps) {
  const directory = deps.paths.profilePictures;
  return new Hono<AppEnv>()
    .post("/system/user", async (c) => {
      const input = await parseJson(c, AccountUpdateInput);
      const { user, passwordChanged } = await updateOwnAccount(deps, c.var.actor, input);
      return c.json({
        success: true,
        error: null,
        token: passwordChanged ? await sessionFor(deps, user) : undefined,
      });
    })
    .post(
      "/system/upload-pfp",
      uploadLimit(MAX_PICTURE_BYTES, "The picture is too large: the limit is 5 MB."),
      async (c) => {
        const userId = c.var.actor.userId ?? noAccounts();
        const filename = await storeUploadedPicture(await readForm(c), directory, writeFileAtomic);
        await removeStoredPicture(directory, await setProfilePicture(deps, userId, filename));
        return c.json({ success: true, error: null });
      },
    )
    .get("/system/pfp/:id", async (c) => {
      // Only the caller's own picture, as the reference; anything else is "no picture".
      const id = Number(c.req.param("id"));
      if (!Number.isInteger(id) || id !== c.var.actor.userId) return c.body(null, 204);
      const picture = await readStoredPicture(directory, (await findUserById(deps, id))?.pfpFilename ?? null);
      if (!picture) return c.body(null, 204);
      return c.body(picture.bytes, 200, {
        "Content-Type": picture.type,
        "Cache-Control": "private, no-cache",
      });
    })
    .delete("/system/remove-pfp", async (c) => {
      const userId = c.var.actor.userId ?? noAccounts();
      await removeStoredPicture(directory, await setProfilePicture(deps, userId, null));
      return c.json({ success: true, error: null });
    });
}
