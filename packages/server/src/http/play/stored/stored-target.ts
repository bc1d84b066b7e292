/**
 * Maps a `/play/<id>[/...]` request onto stored content: which output it asks for, the playback
 * protocol the gate and analytics count, and the `/play/<id>` JSON of stored content.
 */
import type { PlaybackProtocol } from '@airwave/media';
import { type PlayResponse, withUriQuery } from '@airwave/media/protocols/shared/http-types';
import type { StoredContent } from '../../../domain/recordings/recording.js';
import type { PlaybackGateProtocol } from '../playback-gate.js';
import type { StoredOutput } from './stored-playback.js';

/** What a request for stored content asks. */
export interface StoredTarget {
  readonly playbackId: string;
  readonly output: StoredOutput | 'info';
  readonly protocol: PlaybackGateProtocol;
  readonly path: string;
  /** The live DVR window of a stream's playback ID (`dvr/...`): served from its newest recording. */
  readonly live?: boolean;
}

/** The stored target of a request path, or undefined when the path is not one stored content has. */
export function storedTarget(rawId: string, path: string | undefined): StoredTarget | undefined {
  if (path === undefined) {
    return rawId.endsWith('.mp4')
      ? { playbackId: rawId.slice(0, -'.mp4'.length), output: 'mp4', protocol: 'mp4', path: '' }
      : { playbackId: rawId, output: 'info', protocol: 'info', path: '' };
  }
  if (path.startsWith('hls/')) {
    return { playbackId: rawId, output: 'hls', protocol: 'hls', path: path.slice(4) };
  }
  if (path.startsWith('thumbnails/')) {
    return { playbackId: rawId, output: 'thumbnail', protocol: 'info', path: path.slice('thumbnails/'.length) };
  }
  if (path.startsWith('dvr/')) {
    const rest = path.slice(4);
    const protocol: PlaybackProtocol = rest.endsWith('.mpd') ? 'dash' : 'llhls';
    return { playbackId: rawId, output: 'cmaf', protocol, path: rest, live: true };
  }
  if (path.startsWith('cmaf/')) {
    const rest = path.slice(5);
    const protocol: PlaybackProtocol = rest.endsWith('.mpd') ? 'dash' : 'llhls';
    return { playbackId: rawId, output: 'cmaf', protocol, path: rest };
  }
  return undefined;
}

/** The `/play/<id>` JSON of stored content: what it is and its output URLs. */
export function storedInfo(content: StoredContent, baseUrl: string, uriQuery: string | undefined): PlayResponse {
  const base = `${baseUrl}/play/${content.playbackId}`;
  const artifact = content.artifact;
  const urls: Record<string, string> = {
    hlsCmaf: withUriQuery(`${base}/cmaf/index.m3u8`, uriQuery),
    dash: withUriQuery(`${base}/cmaf/index.mpd`, uriQuery),
  };
  if (artifact) {
    urls.hls = withUriQuery(`${base}/hls/index.m3u8`, uriQuery);
    urls.mp4 = withUriQuery(`${base}.mp4`, uriQuery);
  }
  urls.poster = `${base}/thumbnails/poster.jpg`;
  urls.sprite = `${base}/thumbnails/sprite.jpg`;
  urls.spriteVtt = `${base}/thumbnails/sprite.vtt`;
  const body = {
    playbackId: content.playbackId,
    status: artifact ? artifact.status : content.recording.status,
    kind: artifact ? artifact.kind.toLowerCase() : 'dvr',
    durationMs: artifact ? artifact.durationMs : content.recording.durationMs,
    urls,
  };
  return {
    status: 200,
    headers: { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}
