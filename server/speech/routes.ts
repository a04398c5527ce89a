import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { workspaceChats } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { parseResponse } from "../chat/history.ts";
import { idParam } from "../users/routes.ts";
import { speechMakerFor } from "../providers/tts/registry.ts";
import { speakableText } from "../../shared/speech.ts";
import { speechDeps, transcribeMedia, WHISPER_API_MAX_BYTES } from "./transcribe.ts";

/** A chat of this workspace the caller may read: in multi-user mode only their own. */
async function readableChat(deps: Deps, actor: Actor, workspaceId: number, chatId: number) {
  const owner = actor.multiUser && actor.userId !== null
    ? eq(workspaceChats.userId, actor.userId)
    : undefined;
  const [row] = await deps.db.select().from(workspaceChats).where(
    and(eq(workspaceChats.id, chatId), eq(workspaceChats.workspaceId, workspaceId), owner),
  );
  return row ?? null;
}

/**
 * Speech calls (docs/api-compat.md#speech-providers): an answer read aloud by the text-to-speech provider, and
 * the composer's recording read by the transcription provider.
 */
export function speechRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();

  app.get("/workspace/:slug/tts/:chatId", async (c) => {
    const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
    const row = await readableChat(deps, c.var.actor, workspace.id, idParam(c.req.param("chatId"), "chat"));
    if (!row) fail("not_found", "Chat not found.");
    const text = speakableText(parseResponse(row)?.text ?? "");
    // `native`: the browser speaks; nothing to answer here, as with an empty answer (the reference's 204).
    const maker = speechMakerFor((key) => deps.settings.value(key), deps.providerDeps);
    if (!text || !maker) return c.body(null, 204);
    const speech = await maker.speak(text, c.req.raw.signal);
    return c.body(speech.bytes as Uint8Array<ArrayBuffer>, 200, {
      "content-type": speech.mime,
      "cache-control": "private, max-age=3600",
    });
  });

  app.post(
    "/system/transcribe-audio",
    uploadLimit(WHISPER_API_MAX_BYTES, "The recording is too large: the limit is 25 MB."),
    async (c) => {
      const answer = (status: 400 | 413, error: string) => c.json({ success: false, error }, status);
      if ((deps.settings.value("SpeechToTextProvider") ?? "native") === "native") {
        return answer(
          400,
          "Server-side transcription is disabled. Set STT_PROVIDER to a supported provider.",
        );
      }
      const form = await readForm(c);
      const audio = form.audio;
      if (!(audio instanceof File)) return answer(400, "No audio file provided.");
      if (audio.size > WHISPER_API_MAX_BYTES) {
        return answer(413, "The recording is too large: the limit is 25 MB.");
      }
      const name = audio.name || "audio.webm";
      const text = await transcribeMedia(
        deps,
        name,
        new Uint8Array(await audio.arrayBuffer()),
        c.req.raw.signal,
      );
      return c.json({ success: true, text });
    },
  );

  return app;
}

export { speechDeps };
