/**
 * Classic HLS over MPEG-TS (RFC 8216) for every live stream of a hub: one TsSegmenter per stream
 * (from publish on, or on demand from the first request, primed from the stream's history),
 * answering `index.m3u8` (multivariant), `stream.m3u8` (media playlist) and `seg-<n>.ts` under
 * `/play/<id>/hls/`. An ended stream keeps answering (with EXT-X-ENDLIST) for a grace period.
 */
import type { Hub } from '../../../hub/hub.js';
import { ReplayClock } from '../../../hub/replay-clock.js';
import type { Track, VideoTrack } from '../../../stream/track.js';
import {
  CACHE_IMMUTABLE,
  CACHE_LIVE_PLAYLIST,
  errorResponse,
  type PlayRequest,
  type PlayResponse,
} from '../../shared/http-types.js';
import { noSegmentYet, PackagedStreams, type PackagingOptions } from '../../shared/packaged-streams.js';
import type { SegmentSpool } from './segment-spool.js';
import { renderMediaPlaylist, renderMultivariantPlaylist } from './ts-playlists.js';
import { type TsMeasurements, TsSegmenter, type TsSegmenterOptions } from './ts-segmenter.js';

/** Options of the classic HLS service. */
export interface TsHlsOptions extends TsSegmenterOptions, PackagingOptions {
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

const SEGMENT_PATH = /^seg-(\d{1,15})\.ts$/;

/** Serves classic HLS for every stream of a hub. */
export class TsHlsService {
  private readonly streams: PackagedStreams<TsSegmenter>;
  private readonly firstSegmentWaitMs: number;
  private readonly spool: SegmentSpool | undefined;

  constructor(hub: Hub, options: TsHlsOptions = {}) {
    // The history fills every retained segment, so the measurements match an always-on packager's too.
    const windowSegments = Math.max(1, options.windowSegments ?? 6);
    const kept = windowSegments + Math.max(0, options.retainSegments ?? windowSegments);
    const targetSeconds = options.targetDurationSeconds ?? 2;
    this.streams = new PackagedStreams(
      hub,
      () => {
        const clock = new ReplayClock(options.now);
        return { packager: new TsSegmenter({ ...options, now: clock.now }), clock };
      },
      { seconds: (kept + 1) * targetSeconds, gops: kept + 1 },
      options,
    );
    this.spool = options.spool;
    this.firstSegmentWaitMs = options.firstSegmentWaitMs ?? 3_000 * (options.targetDurationSeconds ?? 2);
  }

  /** Bytes of TS segments every stream's segmenter holds (window and retained segments). */
  heldBytes(): number {
    return this.streams.heldBytes();
  }

  /** Answers one request under `/play/<id>/hls/`. */
  async handle(req: PlayRequest): Promise<PlayResponse> {
    const unsupported = this.streams.get(req.playbackId)?.packager.unsupported;
    if (unsupported !== undefined) {
      return errorResponse(404, 'hls_unavailable', `classic HLS cannot carry this stream: ${unsupported}`);
    }
    const entry = this.streams.forViewer(req, 'hls');
    if ('status' in entry) {
      return entry;
    }
    const segmenter = entry.packager;
    if (req.path === 'index.m3u8' || req.path === 'stream.m3u8') {
      await segmenter.waitForSegment(this.firstSegmentWaitMs, req.signal);
      if (segmenter.window.length === 0) {
        return noSegmentYet(segmenter, req.playbackId);
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
        'content-length': String(segment.byteLength),
      },
      body: segment.spooled ? segment.spooled.body() : segment.data,
    };
  }

  /**
   * Measurements and state of one stream, or undefined when the service does not know it. On
   * demand this creates (and keeps warm) the packager, as a viewer's request would: `/play/<id>`
   * is what a player asks for first.
   */
  status(playbackId: string): TsHlsStatus | undefined {
    const segmenter = this.streams.get(playbackId)?.packager;
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

  /** True while a packager exists for this playback id (on demand: after a request, until idle). */
  isPackaging(playbackId: string): boolean {
    return this.streams.isPackaging(playbackId);
  }

  /** Drops packagers idle for longer than the idle time (on demand; runs on a timer too). */
  sweep(now?: number): number {
    return this.streams.sweep(now);
  }

  /** Forgets every stream and stops the grace timers (shutdown); removes the spool's files. */
  close(): void {
    this.streams.close();
    this.spool?.close();
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
