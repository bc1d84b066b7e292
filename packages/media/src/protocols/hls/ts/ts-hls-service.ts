/**
 * Classic HLS over MPEG-TS (RFC 8216) for every live stream of a hub: one TsSegmenter per stream,
 * answering `index.m3u8` (multivariant), `stream.m3u8` (media playlist) and `seg-<n>.ts` under
 * `/play/<id>/hls/`. An ended stream keeps answering (with EXT-X-ENDLIST) for a grace period.
 */
import type { Hub, StreamOutput } from '../../../hub/hub.js';
import type { LiveStream } from '../../../hub/live-stream.js';
import type { Track, VideoTrack } from '../../../stream/track.js';
import {
  CACHE_IMMUTABLE,
  CACHE_LIVE_PLAYLIST,
  errorResponse,
  type PlayRequest,
  type PlayResponse,
} from '../../shared/http-types.js';
import { renderMediaPlaylist, renderMultivariantPlaylist } from './ts-playlists.js';
import { type TsMeasurements, TsSegmenter, type TsSegmenterOptions } from './ts-segmenter.js';

/** Options of the classic HLS service. */
export interface TsHlsOptions extends TsSegmenterOptions {
  /** How long an ended stream keeps answering with its final playlist (default 60 s). */
  readonly endedGraceMs?: number;
  /** How long a playlist request waits for the first segment of a new stream (default 3 targets). */
  readonly firstSegmentWaitMs?: number;
}

/** What the HLS packager knows about one stream, for the `/play/<id>` JSON and metrics. */
export interface TsHlsStatus extends TsMeasurements {
  /** True once the stream ended (the playlist carries EXT-X-ENDLIST). */
  readonly ended: boolean;
  /** Segments currently listed. */
  readonly segments: number;
  /** EXT-X-TARGETDURATION currently advertised. */
  readonly targetDuration: number;
  /** The tracks being packaged. */
  readonly tracks: readonly Track[];
  /** Why MPEG-TS cannot carry the stream (e.g. AV1 or VP9), when it cannot; HLS then answers 404. */
  readonly unavailable?: string;
}

/** Content-Type of HLS playlists (RFC 8216 section 4). */
export const HLS_PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
/** Content-Type of MPEG-TS segments. */
export const MPEG_TS_TYPE = 'video/mp2t';

interface Entry {
  readonly stream: LiveStream;
  readonly segmenter: TsSegmenter;
  timer: NodeJS.Timeout | undefined;
}

const SEGMENT_PATH = /^seg-(\d{1,15})\.ts$/;

/** Serves classic HLS for every stream of a hub. */
export class TsHlsService {
  private readonly entries = new Map<string, Entry>();
  private readonly endedGraceMs: number;
  private readonly firstSegmentWaitMs: number;

  constructor(
    hub: Hub,
    private readonly options: TsHlsOptions = {},
  ) {
    this.endedGraceMs = options.endedGraceMs ?? 60_000;
    this.firstSegmentWaitMs = options.firstSegmentWaitMs ?? 3_000 * (options.targetDurationSeconds ?? 2);
    hub.addOutput((stream) => this.open(stream));
  }

  /** Answers one request under `/play/<id>/hls/`. */
  async handle(req: PlayRequest): Promise<PlayResponse> {
    const entry = this.entries.get(req.playbackId);
    if (!entry) {
      return notFound(req.playbackId);
    }
    const { segmenter, stream } = entry;
    const unsupported = segmenter.unsupported;
    if (unsupported !== undefined) {
      return errorResponse(404, 'hls_unavailable', `classic HLS cannot carry this stream: ${unsupported}`);
    }
    if (segmenter.ended === undefined) {
      stream.viewers.touch(req.sessionId, 'hls');
    }
    if (req.path === 'index.m3u8' || req.path === 'stream.m3u8') {
      await segmenter.waitForSegment(this.firstSegmentWaitMs, req.signal);
      if (segmenter.window.length === 0) {
        return segmenter.ended === undefined
          ? retryLater('the stream has not produced a segment yet')
          : notFound(req.playbackId);
      }
      const body =
        req.path === 'index.m3u8' ? this.multivariant(segmenter, req.uriQuery) : this.media(segmenter, req.uriQuery);
      return {
        status: 200,
        headers: { 'content-type': HLS_PLAYLIST_TYPE, 'cache-control': CACHE_LIVE_PLAYLIST },
        body,
      };
    }
    const match = SEGMENT_PATH.exec(req.path);
    const segment = match ? segmenter.segment(Number(match[1])) : undefined;
    if (!segment) {
      return errorResponse(404, 'segment_not_found', `no segment ${req.path} in the HLS window of ${req.playbackId}`);
    }
    return {
      status: 200,
      headers: {
        'content-type': MPEG_TS_TYPE,
        'cache-control': CACHE_IMMUTABLE,
        'content-length': String(segment.data.byteLength),
      },
      body: segment.data,
    };
  }

  /** Measurements and state of one stream, or undefined when the service does not know it. */
  status(playbackId: string): TsHlsStatus | undefined {
    const segmenter = this.entries.get(playbackId)?.segmenter;
    if (!segmenter) {
      return undefined;
    }
    return {
      ...segmenter.measurements(),
      ended: segmenter.ended !== undefined,
      segments: segmenter.window.length,
      targetDuration: segmenter.targetDuration,
      tracks: segmenter.tracks,
      ...(segmenter.unsupported !== undefined ? { unavailable: segmenter.unsupported } : {}),
    };
  }

  /** Forgets every stream and stops the grace timers (shutdown). */
  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
    }
    this.entries.clear();
  }

  private open(stream: LiveStream): StreamOutput {
    const previous = this.entries.get(stream.playbackId);
    if (previous) {
      clearTimeout(previous.timer);
    }
    const segmenter = new TsSegmenter(this.options);
    const entry: Entry = { stream, segmenter, timer: undefined };
    this.entries.set(stream.playbackId, entry);
    const detach = stream.attach(segmenter);
    return {
      close: () => {
        detach();
        segmenter.onEnd(stream.endReason ?? 'stream closed');
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (this.entries.get(stream.playbackId) === entry) {
            this.entries.delete(stream.playbackId);
          }
        }, this.endedGraceMs);
        entry.timer.unref();
      },
    };
  }

  private multivariant(segmenter: TsSegmenter, uriQuery: string | undefined): string {
    const measured = segmenter.measurements();
    const tracks = segmenter.tracks;
    const video = tracks.find((track): track is VideoTrack => track.kind === 'video');
    return renderMultivariantPlaylist(
      {
        uri: 'stream.m3u8',
        bandwidth: measured.peakBandwidth ?? 1,
        averageBandwidth: measured.averageBandwidth,
        codecs: tracks.map((track) => track.codecString),
        width: video?.width,
        height: video?.height,
        frameRate: video?.fps ?? measured.fps,
      },
      uriQuery,
    );
  }

  private media(segmenter: TsSegmenter, uriQuery: string | undefined): string {
    return renderMediaPlaylist({
      targetDuration: segmenter.targetDuration,
      segments: segmenter.window,
      ended: segmenter.ended !== undefined,
      uriQuery,
    });
  }
}

function notFound(playbackId: string): PlayResponse {
  return errorResponse(404, 'playback_id_not_found', `no live stream with playback id ${playbackId}`);
}

function retryLater(message: string): PlayResponse {
  const response = errorResponse(503, 'not_ready', message);
  return { ...response, headers: { ...response.headers, 'retry-after': '1' } };
}
