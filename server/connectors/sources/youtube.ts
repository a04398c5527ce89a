import {
  type FetchParams,
  type TranscriptResult,
  YoutubeTranscript,
  YoutubeTranscriptDisabledError,
  YoutubeTranscriptInvalidVideoIdError,
  YoutubeTranscriptNotAvailableError,
  YoutubeTranscriptNotAvailableLanguageError,
  YoutubeTranscriptTooManyRequestError,
  YoutubeTranscriptVideoUnavailableError,
} from "youtube-transcript-plus";
import {
  YOUTUBE_URL_MESSAGE,
  type YouTubeOptions,
  youtubeVideoId,
} from "../../../shared/api/connectors_sources.ts";
import {
  type ConnectorContext,
  type ConnectorDocument,
  ConnectorError,
  type ConnectorSource,
} from "../source.ts";
import { decodeEntities, textVersion, unreachable } from "./common.ts";

/** The reference's sentence for a video without captions. */
export const NO_TRANSCRIPT = "No transcript found for that YouTube video.";

/** The watch page of a video: the document's link, which live sync fetches again. */
export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/**
 * The captions of one YouTube video, as one document. The protocol (the watch page's Innertube key, the
 * Innertube player's caption tracks, the track's timedtext XML) is youtube-transcript-plus's, a maintained
 * library that lets every request go through the import's guarded fetch.
 */
export const youtubeSource: ConnectorSource<YouTubeOptions> = {
  id: "youtube",
  folder: () => "youtube-transcripts",
  async *documents(options, context) {
    yield await transcriptDocument(options, context);
  },
  syncParams: (options): Record<string, string> => (options.language ? { language: options.language } : {}),
  /** The video's captions again, in the language the import asked for (live sync). */
  refetch: ({ url, params }, context) =>
    transcriptDocument(
      { url, language: typeof params.language === "string" ? params.language : undefined },
      context,
    ),
};

/** Which track: the language asked for; without one English (`en`, then `en-*`), else the video's first. */
export async function transcriptDocument(
  options: YouTubeOptions,
  context: ConnectorContext,
): Promise<ConnectorDocument> {
  const videoId = youtubeVideoId(options.url);
  if (!videoId) throw new ConnectorError(YOUTUBE_URL_MESSAGE);
  let result: TranscriptResult;
  try {
    result = await fetchTranscript(videoId, options.language ?? "en", context);
  } catch (error) {
    if (options.language || !(error instanceof YoutubeTranscriptNotAvailableLanguageError)) {
      throw explain(error, context);
    }
    const available = error.availableLangs;
    const fallback = available.find((code) => /^en-/i.test(code)) ?? available[0];
    if (!fallback) throw new ConnectorError(NO_TRANSCRIPT);
    try {
      result = await fetchTranscript(videoId, fallback, context);
    } catch (again) {
      throw explain(again, context);
    }
  }

  const text = result.segments.map((segment) => decodeEntities(segment.text)).join(" ").replace(/\s+/g, " ")
    .trim();
  if (!text) throw new ConnectorError("No transcript could be parsed for that YouTube video.");
  const details = result.videoDetails;
  const title = details.title.trim() || watchUrl(videoId);
  const language = result.segments[0]?.lang;
  return {
    key: videoId,
    title,
    text,
    url: watchUrl(videoId),
    version: textVersion(title, details.author, text),
    metadata: {
      docAuthor: details.author.trim() || undefined,
      description: details.description.trim().slice(0, 1000) ||
        `Transcript${language ? ` (${language})` : ""} of the YouTube video ${title}.`,
    },
  };
}

function fetchTranscript(
  videoId: string,
  lang: string,
  context: ConnectorContext,
): Promise<TranscriptResult> {
  const through = (params: FetchParams) =>
    context.fetch(params.url, {
      method: params.method ?? "GET",
      headers: {
        ...(params.userAgent ? { "User-Agent": params.userAgent } : {}),
        ...(params.lang ? { "Accept-Language": params.lang } : {}),
        ...params.headers,
      },
      body: params.method === "POST" ? params.body : undefined,
      signal: params.signal ?? context.signal,
    });
  return YoutubeTranscript.fetchTranscript(videoId, {
    lang,
    videoDetails: true,
    signal: context.signal,
    videoFetch: through,
    playerFetch: through,
    transcriptFetch: through,
  });
}

/** The library's failures as the sentences the person sees; anything else is a failed fetch. */
function explain(error: unknown, context: ConnectorContext): Error {
  if (error instanceof YoutubeTranscriptInvalidVideoIdError) return new ConnectorError(YOUTUBE_URL_MESSAGE);
  if (error instanceof YoutubeTranscriptNotAvailableLanguageError) {
    const available = error.availableLangs.join(", ");
    return new ConnectorError(
      `That YouTube video has no captions in ${error.lang}${
        available ? `; it has captions in ${available}` : ""
      }.`,
    );
  }
  if (
    error instanceof YoutubeTranscriptDisabledError || error instanceof YoutubeTranscriptNotAvailableError
  ) {
    return new ConnectorError(NO_TRANSCRIPT);
  }
  if (error instanceof YoutubeTranscriptVideoUnavailableError) {
    return new ConnectorError("That YouTube video is unavailable: it may be private or removed.");
  }
  if (error instanceof YoutubeTranscriptTooManyRequestError) {
    return new ConnectorError("YouTube is refusing requests from this server for now. Try again later.");
  }
  if (error instanceof SyntaxError) {
    return new ConnectorError("YouTube answered with something other than a video's details.");
  }
  return unreachable("YouTube", error, context.signal);
}
