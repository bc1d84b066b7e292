/** The `/play/<id>` JSON: status, tracks with measured values, and every output URL. */
import type { LiveStream, Track } from '@airwave/media';
import type { TsHlsStatus } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import { withUriQuery } from '@airwave/media/protocols/shared/http-types';

/** Live state of a playback id as viewers see it. */
export type PlayStatus = 'live' | 'reconnecting' | 'offline';

/** One track as the JSON lists it. */
export interface PlayTrackInfo {
  readonly id: number;
  readonly kind: 'video' | 'audio';
  readonly codec: string;
  /** RFC 6381 codec string. */
  readonly codecString: string;
  readonly width?: number;
  readonly height?: number;
  readonly fps?: number;
  /** Video only: true when frames are reordered (B-frames), which WebRTC playback cannot carry. */
  readonly bFrames?: boolean;
  /** Bits per second (declared by the publisher, else measured by the HLS packager). */
  readonly bitrate?: number;
  readonly channels?: number;
  readonly sampleRate?: number;
}

/** Absolute playback URLs of one playback id. */
export interface PlayUrls {
  /** Classic HLS over MPEG-TS; absent when MPEG-TS cannot carry the codecs (AV1, VP9). */
  readonly hls?: string;
  /** LL-HLS over CMAF. */
  readonly llhls: string;
  /** Dynamic DASH over the same CMAF segments. */
  readonly dash: string;
  /** Live progressive fragmented MP4. */
  readonly mp4: string;
  /** WHEP endpoint, present only when the node serves WebRTC playback. */
  readonly webrtc?: string;
}

/** The whole JSON body. */
export interface PlayInfo {
  readonly playbackId: string;
  readonly status: PlayStatus;
  readonly startedAt?: string;
  readonly tracks: readonly PlayTrackInfo[];
  /** Measured interval between video keyframes in seconds (segments cannot be shorter). */
  readonly keyframeIntervalSeconds: number | null;
  /** Peak and average bits per second of the HLS rendition, when measured. */
  readonly bandwidth: number | null;
  readonly averageBandwidth: number | null;
  readonly urls: PlayUrls;
}

/** Inputs of buildPlayInfo. */
export interface PlayInfoSource {
  readonly playbackId: string;
  /** The live stream, when it is on this node. */
  readonly stream?: LiveStream;
  /** What the HLS packager measured, when it knows the stream. */
  readonly hls?: TsHlsStatus;
  readonly publicBaseUrl: string;
  readonly webrtc: boolean;
  readonly uriQuery?: string;
}

/** Builds the JSON for a playback id known to the stream or to the HLS packager. */
export function buildPlayInfo(source: PlayInfoSource): PlayInfo {
  const { stream, hls } = source;
  const status: PlayStatus = !stream ? 'offline' : stream.isInterrupted ? 'reconnecting' : 'live';
  const tracks = stream?.description?.tracks ?? hls?.tracks ?? [];
  const base = `${source.publicBaseUrl.replace(/\/+$/, '')}/play/${encodeURIComponent(source.playbackId)}`;
  const url = (path: string): string => withUriQuery(`${base}${path}`, source.uriQuery);
  return {
    playbackId: source.playbackId,
    status,
    ...(stream ? { startedAt: stream.startedAt.toISOString() } : {}),
    tracks: tracks.map((track) => trackInfo(track, hls)),
    keyframeIntervalSeconds: hls?.keyframeIntervalSeconds ?? null,
    bandwidth: hls?.peakBandwidth ?? null,
    averageBandwidth: hls?.averageBandwidth ?? null,
    urls: {
      ...(hls?.unavailable === undefined ? { hls: url('/hls/index.m3u8') } : {}),
      llhls: url('/cmaf/index.m3u8'),
      dash: url('/cmaf/index.mpd'),
      mp4: url('.mp4'),
      ...(source.webrtc ? { webrtc: url('/webrtc') } : {}),
    },
  };
}

function trackInfo(track: Track, hls: TsHlsStatus | undefined): PlayTrackInfo {
  const bitrate = track.bitrate ?? hls?.trackBitrates.get(track.id);
  const common = { id: track.id, kind: track.kind, codec: track.codec, codecString: track.codecString };
  if (track.kind === 'video') {
    const fps = track.fps ?? hls?.fps;
    return {
      ...common,
      width: track.width,
      height: track.height,
      ...(fps !== undefined ? { fps } : {}),
      ...(bitrate !== undefined ? { bitrate } : {}),
      ...(hls ? { bFrames: hls.bFrames } : {}),
    };
  }
  return {
    ...common,
    channels: track.channels,
    sampleRate: track.sampleRate,
    ...(bitrate !== undefined ? { bitrate } : {}),
  };
}
