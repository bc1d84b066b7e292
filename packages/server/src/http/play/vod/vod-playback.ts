/**
 * Playback of a processed VOD asset from object storage under its own playback ID: CMAF HLS
 * (`cmaf/index.m3u8` and its media playlists), DASH (`cmaf/index.mpd`) over the same fMP4
 * segments, classic HLS (`hls/…`, MPEG-TS; the CMAF playlists when the codecs do not fit
 * MPEG-TS), progressive MP4 (`<id>.mp4`, `moov` first, byte ranges per RFC 9110 §14) and the
 * images (`thumbnails/poster.jpg`, `sprite.jpg`, `sprite.vtt`, as recordings serve theirs). A gate's URI query (`jwt=`) is carried
 * into every URI a playlist or manifest lists.
 */
import { text } from 'node:stream/consumers';
import {
  CACHE_IMMUTABLE,
  errorResponse,
  notReady,
  type PlayResponse,
  withUriQuery,
} from '@airwave/media/protocols/shared/http-types';
import type { VodAssetRecord } from '../../../domain/vod/vod-asset.js';
import { contentTypeOfKey } from '../../../storage/content-types.js';
import { type ObjectStorage, StorageFailedError, StorageNotFoundError } from '../../../storage/object-storage.js';

/** Which output a request asks for. */
export type VodOutput = 'cmaf' | 'hls' | 'mp4' | 'asset';

/** One request for a VOD asset. */
export interface VodRequest {
  readonly content: VodAssetRecord;
  readonly output: VodOutput;
  /** File name under the output (`index.m3u8`, `seg-0-00001.m4s`, `poster.jpg`). */
  readonly path: string;
  readonly range: string | undefined;
  readonly uriQuery: string | undefined;
}

const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const IMAGES = new Set(['poster.jpg', 'sprite.jpg', 'sprite.vtt']);
const LOOKUP_CACHE_MS = 1000;

/** The `/play/<id>` JSON of a VOD asset: its state and output URLs. */
export function vodInfo(asset: VodAssetRecord, baseUrl: string, uriQuery: string | undefined): PlayResponse {
  const base = `${baseUrl}/play/${asset.playbackId}`;
  const outputs = new Set(asset.outputs);
  const urls: Record<string, string> = {};
  if (outputs.has('cmaf')) {
    urls.hlsCmaf = withUriQuery(`${base}/cmaf/index.m3u8`, uriQuery);
    urls.dash = withUriQuery(`${base}/cmaf/index.mpd`, uriQuery);
    urls.hls = withUriQuery(`${base}/hls/index.m3u8`, uriQuery);
  }
  if (outputs.has('mp4')) {
    urls.mp4 = withUriQuery(`${base}.mp4`, uriQuery);
  }
  for (const image of IMAGES) {
    if (outputs.has(image.slice(0, image.indexOf('.')))) {
      urls[image.replace('.', '_')] = `${base}/thumbnails/${image}`;
    }
  }
  const body = {
    playbackId: asset.playbackId,
    kind: 'vod',
    status: asset.status,
    durationMs: asset.durationMs,
    urls,
  };
  return {
    status: 200,
    headers: { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}

/** Appends the URI query to every URI line and URI/media/initialization attribute. */
export function carryQuery(manifest: string, uriQuery: string | undefined, dash: boolean): string {
  if (!uriQuery) {
    return manifest;
  }
  if (dash) {
    return manifest.replace(
      /\b(media|initialization)="([^"]+)"/g,
      (_m, name: string, uri: string) => `${name}="${withUriQuery(uri, uriQuery).replaceAll('&', '&amp;')}"`,
    );
  }
  return manifest
    .split('\n')
    .map((line) =>
      line.startsWith('#')
        ? line.replace(/URI="([^"]+)"/g, (_m, uri: string) => `URI="${withUriQuery(uri, uriQuery)}"`)
        : line.trim() === ''
          ? line
          : withUriQuery(line.trim(), uriQuery),
    )
    .join('\n');
}

/** Parses one `bytes=` range against the object size; undefined when unsatisfiable or malformed. */
export function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return undefined;
  }
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix > 0 && size > 0 ? { start: Math.max(0, size - suffix), end: size - 1 } : undefined;
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start < size && start <= end ? { start, end } : undefined;
}

/** Serves VOD assets from storage. */
export class VodPlayback {
  private readonly lookups = new Map<string, { at: number; value: Promise<VodAssetRecord | undefined> }>();

  constructor(
    private readonly storage: ObjectStorage,
    private readonly lookup: (playbackId: string) => Promise<VodAssetRecord | undefined>,
  ) {}

  /** The asset a playback ID names, if any (cached briefly once processing is over). */
  find(playbackId: string): Promise<VodAssetRecord | undefined> {
    const now = Date.now();
    const cached = this.lookups.get(playbackId);
    if (cached && now - cached.at < LOOKUP_CACHE_MS) {
      return cached.value;
    }
    if (this.lookups.size > 1000) {
      this.lookups.clear();
    }
    const value = this.lookup(playbackId);
    this.lookups.set(playbackId, { at: now, value });
    // Only settled assets are cached: one being processed gains outputs from one request to the next.
    value.then(
      (asset) => asset && asset.status === 'READY' && asset.progressPercent < 100 && this.lookups.delete(playbackId),
      () => this.lookups.delete(playbackId),
    );
    return value;
  }

  /** Answers one request. */
  async handle(request: VodRequest): Promise<PlayResponse> {
    const { content } = request;
    if (content.status === 'PROCESSING' || content.status === 'UPLOADING') {
      return notReady(`the asset is ${content.status.toLowerCase()}`);
    }
    if (content.status !== 'READY') {
      return errorResponse(404, 'asset_not_playable', `the asset is ${content.status.toLowerCase()}`);
    }
    const key = this.keyOf(request);
    if (!key) {
      return errorResponse(404, 'output_not_found', `no ${request.output} output at ${request.path}`);
    }
    try {
      if (key.endsWith('.m3u8') || key.endsWith('.mpd')) {
        const read = await this.storage.get(key);
        const body = carryQuery(await text(read.body), request.uriQuery, key.endsWith('.mpd'));
        return {
          status: 200,
          headers: { 'content-type': contentTypeOfKey(key) ?? 'text/plain', 'cache-control': 'public, max-age=60' },
          body,
        };
      }
      return await this.bytes(key, request.range);
    } catch (error) {
      if (error instanceof StorageNotFoundError) {
        return errorResponse(404, 'output_not_found', `no ${request.output} output at ${request.path}`);
      }
      if (error instanceof StorageFailedError) {
        return errorResponse(502, 'storage_failed', error.reason);
      }
      throw error;
    }
  }

  private keyOf(request: VodRequest): string | undefined {
    const { content, output, path } = request;
    const outputs = new Set(content.outputs);
    if (output === 'mp4') {
      return outputs.has('mp4') ? `${content.storagePrefix}video.mp4` : undefined;
    }
    if (!FILE.test(path)) {
      return undefined;
    }
    if (output === 'asset') {
      return IMAGES.has(path) ? `${content.storagePrefix}${path}` : undefined;
    }
    if (output === 'hls' && outputs.has('hls')) {
      return `${content.storagePrefix}hls/${path}`;
    }
    return outputs.has('cmaf') ? `${content.storagePrefix}cmaf/${path}` : undefined;
  }

  private async bytes(key: string, rangeHeader: string | undefined): Promise<PlayResponse> {
    const type = contentTypeOfKey(key) ?? 'application/octet-stream';
    if (rangeHeader) {
      const info = await this.storage.head(key);
      if (!info) {
        throw new StorageNotFoundError(key);
      }
      const range = parseRange(rangeHeader, info.size);
      if (!range) {
        return {
          status: 416,
          headers: { 'content-range': `bytes */${info.size}`, 'cache-control': 'no-store' },
          body: '',
        };
      }
      const read = await this.storage.get(key, range);
      return {
        status: 206,
        headers: {
          'content-type': type,
          'content-length': String(read.length),
          'content-range': `bytes ${range.start}-${range.end}/${info.size}`,
          'accept-ranges': 'bytes',
          'cache-control': CACHE_IMMUTABLE,
        },
        body: read.body,
      };
    }
    const read = await this.storage.get(key);
    return {
      status: 200,
      headers: {
        'content-type': type,
        'content-length': String(read.length),
        'accept-ranges': 'bytes',
        'cache-control': CACHE_IMMUTABLE,
      },
      body: read.body,
    };
  }
}
