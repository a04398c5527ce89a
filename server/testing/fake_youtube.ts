import { Hono } from "hono";

export interface FakeTrack {
  languageCode: string;
  name: string;
  /** `asr` for automatic captions. */
  kind?: string;
  /** [start seconds, duration, text as YouTube sends it (XML-escaped, often twice)]. */
  lines: [number, number, string][];
}

export interface FakeVideo {
  title: string;
  author: string;
  description?: string;
  /** No `captions` in the player answer when absent (captions turned off). */
  tracks?: FakeTrack[];
  /** The player answers with an unplayable status (a private or removed video). */
  unplayable?: boolean;
}

export interface FakeYouTube {
  /** `http://127.0.0.1:<port>`: plays www.youtube.com. */
  baseURL: string;
  /** The bodies the Innertube player was asked with. */
  playerRequests: Record<string, unknown>[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const API_KEY = "AIzaFakeInnertubeKey";

/**
 * YouTube's caption endpoints on loopback, as the real site answers them: the watch page carries the Innertube
 * API key (`"INNERTUBE_API_KEY":"…"`); `POST /youtubei/v1/player?key=…` answers `playabilityStatus`,
 * `videoDetails` and `captions.playerCaptionsTracklistRenderer.captionTracks` (each with a `baseUrl` on
 * www.youtube.com); `GET /api/timedtext?v=…&lang=…` answers the track as timedtext XML
 * (`<transcript><text start dur>…</text></transcript>`). An unknown video's watch page answers 404.
 */
export function startFakeYouTube(videos: Record<string, FakeVideo>): FakeYouTube {
  const playerRequests: Record<string, unknown>[] = [];
  const app = new Hono();
  app.get("/watch", (c) => {
    const id = c.req.query("v") ?? "";
    if (!videos[id]) return c.html("<html><body>This video isn't available anymore</body></html>", 404);
    return c.html(
      `<!doctype html><html><head><title>${videos[id].title} - YouTube</title></head><body><script>` +
        `ytcfg.set({"INNERTUBE_API_KEY":"${API_KEY}","INNERTUBE_CLIENT_NAME":"WEB"});</script></body></html>`,
    );
  });
  app.post("/youtubei/v1/player", async (c) => {
    if (c.req.query("key") !== API_KEY) {
      return c.json({ error: { code: 403, message: "The request is missing a valid API key." } }, 403);
    }
    const body = await c.req.json() as { videoId?: string; context?: { client?: { clientName?: string } } };
    playerRequests.push(body);
    if (!body.context?.client?.clientName) {
      return c.json({ error: { code: 400, message: "Request contains an invalid argument." } }, 400);
    }
    const id = body.videoId ?? "";
    const video = videos[id];
    if (!video || video.unplayable) {
      return c.json({ playabilityStatus: { status: "ERROR", reason: "This video is unavailable" } });
    }
    const origin = "https://www.youtube.com";
    return c.json({
      playabilityStatus: { status: "OK" },
      videoDetails: {
        videoId: id,
        title: video.title,
        author: video.author,
        channelId: "UCfakechannel",
        lengthSeconds: "212",
        viewCount: "1234",
        shortDescription: video.description ?? "",
        isLiveContent: false,
      },
      ...(video.tracks
        ? {
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: video.tracks.map((track) => ({
                baseUrl:
                  `${origin}/api/timedtext?v=${id}&caps=asr&xoaf=5&hl=en&ip=0.0.0.0&lang=${track.languageCode}` +
                  `${track.kind ? `&kind=${track.kind}` : ""}&fmt=srv3`,
                name: { simpleText: track.name },
                vssId: `${track.kind === "asr" ? "a" : ""}.${track.languageCode}`,
                languageCode: track.languageCode,
                ...(track.kind ? { kind: track.kind } : {}),
                isTranslatable: true,
              })),
            },
          },
        }
        : {}),
    });
  });
  app.get("/api/timedtext", (c) => {
    const video = videos[c.req.query("v") ?? ""];
    const track = video?.tracks?.find((candidate) => candidate.languageCode === c.req.query("lang"));
    if (!track) return c.body("", 404);
    // The library strips `fmt`: the answer is the classic timedtext format.
    if (c.req.query("fmt")) return c.body("srv3 is not what this fake serves", 400);
    const lines = track.lines.map(([start, duration, text]) =>
      `<text start="${start}" dur="${duration}">${text}</text>`
    );
    return c.body(
      `<?xml version="1.0" encoding="utf-8" ?><transcript>${lines.join("")}</transcript>`,
      200,
      { "Content-Type": "text/xml; charset=UTF-8" },
    );
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    playerRequests,
    close,
    [Symbol.asyncDispose]: close,
  };
}
