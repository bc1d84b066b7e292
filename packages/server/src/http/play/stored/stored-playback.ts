/**
 * Playback of stored content under `/play/<playbackId>/...`: a recording (whole, growing while it
 * records), a chapter or a clip. HLS over CMAF (`cmaf/index.m3u8`, `cmaf/<track>.m3u8`) and DASH
 * (`cmaf/index.mpd`) are rendered from the recording's index over its stored segments; MPEG-TS
 * HLS (`hls/index.m3u8`) and progressive MP4 (`<id>.mp4`, byte ranges per RFC 9110 §14) are the
 * artifact's stored renditions, 503 until they are made.
 */
import { parseCmafResource } from '@airwave/media/protocols/shared/cmaf/cmaf-names';
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import {
  CACHE_IMMUTABLE,
  CACHE_LIVE_PLAYLIST,
  errorResponse,
  notReady,
  type PlayResponse,
  withUriQuery,
} from '@airwave/media/protocols/shared/http-types';
import type { RecordingRecord, StoredContent } from '../../../domain/recordings/recording.js';
import { artifactHlsKey, artifactMp4Key, artifactPrefix, initKey } from '../../../domain/recordings/recording-keys.js';
import { OPEN_STATUSES } from '../../../domain/recordings/recordings.store.js';
import { segmentLocation } from '../../../domain/recordings/segment-bytes.js';
import {
  type IndexedSegment,
  type RecordingIndex,
  readRecordingIndex,
} from '../../../domain/recordings/segment-index.js';
import { selectSegments, type TrackSelection } from '../../../domain/recordings/segment-selection.js';
import { type ObjectStorage, StorageNotFoundError } from '../../../storage/object-storage.js';
import { type ManifestView, storedMediaPlaylist, storedMpd, storedMultivariant } from './stored-manifests.js';

/** Which output a stored request asks for. */
export type StoredOutput = 'cmaf' | 'hls' | 'mp4' | 'thumbnail';

/** One request for stored content. */
export interface StoredRequest {
  readonly content: StoredContent;
  readonly output: StoredOutput;
  readonly path: string;
  /** The Range header, when sent. */
  readonly range: string | undefined;
  readonly uriQuery: string | undefined;
  /** A live DVR window of this many seconds (the stream's newest recording, sliding). */
  readonly windowSeconds?: number;
}

/** Image and cue files of stored content. */
const THUMBNAILS = new Set(['poster.jpg', 'sprite.jpg', 'sprite.vtt']);

/** How long a lookup (hit or miss) and a growing recording's index are reused, ms. */
const CACHE_MS = 1000;
/** Finished indexes kept in memory. */
const INDEX_CACHE_ENTRIES = 32;

/** Serves stored content from object storage. */
export class StoredPlayback {
  private readonly lookups = new Map<string, { at: number; value: Promise<StoredContent | undefined> }>();
  private readonly indexes = new Map<string, { at: number; finished: boolean; value: Promise<RecordingIndex> }>();

  constructor(
    private readonly storage: ObjectStorage,
    private readonly lookup: (playbackId: string) => Promise<StoredContent | undefined>,
    private readonly lookupLive: (playbackId: string) => Promise<StoredContent | undefined>,
    /** The live DVR window, seconds. */
    readonly windowSeconds: number,
    /** Freshens the poster of a recording live on this node before it is served (resolves at once elsewhere). */
    private readonly freshenLivePoster?: (recording: RecordingRecord) => Promise<void>,
  ) {}

  /** The stored content a playback ID names, if any (cached briefly). */
  find(playbackId: string): Promise<StoredContent | undefined> {
    return this.cached(playbackId, () => this.lookup(playbackId));
  }

  /** The newest recording of a live stream's playback ID, if any (cached briefly). */
  findLive(playbackId: string): Promise<StoredContent | undefined> {
    return this.cached(`live:${playbackId}`, () => this.lookupLive(playbackId));
  }

  private cached(
    playbackId: string,
    lookup: () => Promise<StoredContent | undefined>,
  ): Promise<StoredContent | undefined> {
    const now = Date.now();
    const cached = this.lookups.get(playbackId);
    if (cached && now - cached.at < CACHE_MS) {
      return cached.value;
    }
    if (this.lookups.size > 1000) {
      this.lookups.clear();
    }
    const value = lookup();
    this.lookups.set(playbackId, { at: now, value });
    value.catch(() => this.lookups.delete(playbackId));
    return value;
  }

  /** Answers one request. */
  async handle(request: StoredRequest): Promise<PlayResponse> {
    const { content, output, path } = request;
    if (output === 'mp4' || output === 'hls') {
      return this.rendition(request);
    }
    if (output === 'thumbnail') {
      return this.thumbnail(content, path);
    }
    const finished = isFinished(content);
    const all = await this.tracks(content);
    const windowed = request.windowSeconds === undefined ? undefined : slide(all, request.windowSeconds);
    const tracks = windowed?.tracks ?? all;
    if (tracks.length === 0) {
      return finished ? errorResponse(404, 'no_media', 'nothing was recorded') : notReady('no segment recorded yet');
    }
    const view: ManifestView = {
      finished,
      uriQuery: request.uriQuery,
      nowMs: Date.now(),
      ...(windowed ? { windowSeconds: request.windowSeconds, ...windowed.view } : {}),
    };
    const playlistHeaders = (type: string) => ({
      'content-type': type,
      'cache-control': finished ? 'public, max-age=60' : CACHE_LIVE_PLAYLIST,
    });
    if (path === 'index.m3u8') {
      return {
        status: 200,
        headers: playlistHeaders('application/vnd.apple.mpegurl'),
        body: storedMultivariant(tracks, request.uriQuery),
      };
    }
    if (path === 'index.mpd') {
      return { status: 200, headers: playlistHeaders('application/dash+xml'), body: storedMpd(tracks, view) };
    }
    const playlist = /^(video|audio)\.m3u8$/.exec(path);
    if (playlist) {
      const track = tracks.find((entry) => entry.track === playlist[1]);
      return track
        ? {
            status: 200,
            headers: playlistHeaders('application/vnd.apple.mpegurl'),
            body: storedMediaPlaylist(track, view),
          }
        : notFound(path);
    }
    const resource = parseCmafResource(path);
    const prefix = content.recording.storagePrefix;
    if (resource?.type === 'init') {
      const track = all.find((entry) => entry.track === resource.track);
      return track?.segments.some((segment) => segment.init === resource.version)
        ? this.object(initKey(prefix, resource.track, resource.version), undefined, 'video/mp4')
        : notFound(path);
    }
    if (resource?.type === 'segment') {
      const track = all.find((entry) => entry.track === resource.track);
      const segment = track?.segments.find((entry) => entry.msn === resource.msn);
      return segment ? this.segment(prefix, segment) : notFound(path);
    }
    return notFound(path);
  }

  /** A poster, sprite sheet or cue file (not an auth boundary: served without the gate). */
  private async thumbnail(content: StoredContent, name: string): Promise<PlayResponse> {
    const artifact = content.artifact;
    if (!THUMBNAILS.has(name)) {
      return notFound(name);
    }
    const live = !artifact && name === 'poster.jpg' && OPEN_STATUSES.includes(content.recording.status);
    if (live) {
      await this.freshenLivePoster?.(content.recording);
    }
    const prefix = artifact ? artifactPrefix(artifact.id) : content.recording.storagePrefix;
    const type = name.endsWith('.vtt') ? 'text/vtt; charset=utf-8' : 'image/jpeg';
    return this.object(`${prefix}${live ? 'live-poster.jpg' : name}`, undefined, type, live ? 'no-cache' : undefined);
  }

  private async rendition(request: StoredRequest): Promise<PlayResponse> {
    const artifact = request.content.artifact;
    if (!artifact) {
      return errorResponse(
        404,
        'output_not_found',
        'a recording plays as cmaf/index.m3u8 or cmaf/index.mpd; its chapters have MP4 and MPEG-TS renditions',
      );
    }
    if (artifact.status === 'failed') {
      return errorResponse(404, 'rendition_failed', artifact.errorMessage ?? 'the rendition could not be made');
    }
    if (artifact.status !== 'ready') {
      this.lookups.delete(request.content.playbackId);
      return notReady('the rendition is being made');
    }
    if (request.output === 'mp4') {
      return this.object(artifactMp4Key(artifact.id), request.range, 'video/mp4');
    }
    const name = request.path;
    if (!/^(index\.m3u8|seg-\d{1,9}\.ts)$/.test(name)) {
      return notFound(name);
    }
    if (name === 'index.m3u8') {
      const read = await this.storage.get(artifactHlsKey(artifact.id, name)).catch(() => undefined);
      if (!read) {
        return notFound(name);
      }
      const text = Buffer.concat(await read.body.toArray()).toString('utf8');
      const body = text
        .split('\n')
        .map((line) => (line === '' || line.startsWith('#') ? line : withUriQuery(line, request.uriQuery)))
        .join('\n');
      return {
        status: 200,
        headers: { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'public, max-age=60' },
        body,
      };
    }
    return this.object(artifactHlsKey(artifact.id, name), undefined, 'video/mp2t');
  }

  /** A recorded segment: an object of its own, or its range of a pack served whole (ADR 0062). */
  private async segment(prefix: string, segment: IndexedSegment): Promise<PlayResponse> {
    const { key, range } = segmentLocation(prefix, segment);
    if (!range) {
      return this.object(key, undefined, 'video/iso.segment');
    }
    try {
      const read = await this.storage.get(key, range);
      return {
        status: 200,
        headers: {
          'content-type': 'video/iso.segment',
          'cache-control': CACHE_IMMUTABLE,
          'content-length': String(read.length),
        },
        body: read.body,
      };
    } catch (error) {
      if (error instanceof StorageNotFoundError) {
        return notFound(key.slice(key.lastIndexOf('/') + 1));
      }
      throw error;
    }
  }

  /** A stored object, whole or (with a satisfiable bytes range) partial. */
  private async object(
    key: string,
    rangeHeader: string | undefined,
    type: string,
    cacheControl = CACHE_IMMUTABLE,
  ): Promise<PlayResponse> {
    const info = await this.storage.head(key);
    if (!info) {
      return notFound(key.slice(key.lastIndexOf('/') + 1));
    }
    const range = rangeHeader ? parseRange(rangeHeader, info.size) : undefined;
    if (range === null) {
      return {
        ...errorResponse(416, 'range_not_satisfiable', `the range ${rangeHeader} is outside the ${info.size} bytes`),
        headers: { 'content-range': `bytes */${info.size}`, 'content-type': 'application/json' },
      };
    }
    try {
      const read = await this.storage.get(key, range);
      const headers: Record<string, string> = {
        'content-type': type,
        'cache-control': cacheControl,
        'accept-ranges': 'bytes',
        'content-length': String(read.length),
      };
      if (read.range) {
        headers['content-range'] = `bytes ${read.range.start}-${read.range.end}/${read.totalSize}`;
      }
      return { status: read.range ? 206 : 200, headers, body: read.body };
    } catch (error) {
      if (error instanceof StorageNotFoundError) {
        return notFound(key);
      }
      throw error;
    }
  }

  private async tracks(content: StoredContent): Promise<TrackSelection[]> {
    const index = await this.index(content);
    const artifact = content.artifact;
    return artifact
      ? selectSegments(index, artifact.firstSegment, artifact.lastSegment)
      : selectSegments(index, 0, Number.MAX_SAFE_INTEGER);
  }

  private index(content: StoredContent): Promise<RecordingIndex> {
    const recording = content.recording;
    const finished = !OPEN_STATUSES.includes(recording.status);
    const cached = this.indexes.get(recording.id);
    if (cached && (cached.finished || Date.now() - cached.at < CACHE_MS)) {
      return cached.value;
    }
    if (this.indexes.size >= INDEX_CACHE_ENTRIES) {
      const oldest = this.indexes.keys().next().value;
      if (oldest !== undefined) {
        this.indexes.delete(oldest);
      }
    }
    const value = readRecordingIndex(this.storage, recording.storagePrefix);
    this.indexes.set(recording.id, { at: Date.now(), finished, value });
    value.catch(() => this.indexes.delete(recording.id));
    return value;
  }
}

/** The segments of the last `windowSeconds` (cut on the leading track), with what a sliding view needs of the rest. */
function slide(
  tracks: readonly TrackSelection[],
  windowSeconds: number,
): {
  tracks: TrackSelection[];
  view: Pick<ManifestView, 'origin' | 'discontinuitiesBefore' | 'firstPeriodEpt'>;
} {
  const leader = tracks[0]?.segments ?? [];
  const last = leader[leader.length - 1];
  const first = leader[0];
  if (!last || !first) {
    return { tracks: [...tracks], view: {} };
  }
  const cutoff = last.wallMs + (last.duration * 1000) / last.timescale - windowSeconds * 1000;
  const from = leader.find((segment) => segment.wallMs + (segment.duration * 1000) / segment.timescale > cutoff);
  const firstMsn = from?.msn ?? last.msn;
  const origin: { wallMs: number; ept: Partial<Record<CmafTrackName, number>> } = { wallMs: first.wallMs, ept: {} };
  const discontinuitiesBefore: Partial<Record<CmafTrackName, number>> = {};
  const windowed = tracks.map((track) => {
    origin.ept[track.track] = track.segments[0]?.ept ?? 0;
    // The first listed segment's own discontinuity counts: it is numbered EXT-X-DISCONTINUITY-SEQUENCE.
    discontinuitiesBefore[track.track] = track.segments.filter(
      (segment, i) => i > 0 && segment.msn <= firstMsn && segment.discontinuity,
    ).length;
    return { ...track, segments: track.segments.filter((segment) => segment.msn >= firstMsn) };
  });
  const opening = leader.findLast((segment, i) => i > 0 && segment.msn <= firstMsn && segment.discontinuity);
  return {
    tracks: windowed,
    view: { origin, discontinuitiesBefore, ...(opening ? { firstPeriodEpt: opening.ept } : {}) },
  };
}

/** Whether stored content no longer grows: an artifact, or a recording no longer recording. */
function isFinished(content: StoredContent): boolean {
  return content.artifact !== undefined || !OPEN_STATUSES.includes(content.recording.status);
}

function notFound(path: string): PlayResponse {
  return errorResponse(404, 'not_found', `no stored resource ${path}`);
}

/** One `bytes=` range (RFC 9110 §14.1.2); undefined when the header is not one we serve (whole body), null when unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return undefined;
  }
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) {
      return null;
    }
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || start > end ? null : { start, end };
}
