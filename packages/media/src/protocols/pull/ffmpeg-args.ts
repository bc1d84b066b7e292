/**
 * The ffmpeg command line of a pull: the kind's input options, the input URL (always the guarded
 * relay or a guard-checked literal address, never a name ffmpeg would resolve), then the first
 * video and first audio stream copied (`-c copy`, no re-encode) into MPEG-TS — or WebM for WebM
 * sources, whose VP9/AV1 MPEG-TS cannot carry — on stdout, flushed per packet.
 */
import type { PullKind } from './pull-target.js';

/** ffmpeg input options per kind (before `-i`). */
export function inputOptions(kind: PullKind): string[] {
  switch (kind) {
    case 'rtsp':
    case 'rtsps':
      // Interleaved over the relay's one TCP connection (RTP over UDP would bypass the guard). The
      // SDP already describes the streams: a short probe keeps ffmpeg from waiting for a keyframe
      // it would only decode to learn the pixel format (measured: first output 1.4 s, not 2.3 s).
      return ['-rtsp_transport', 'tcp', '-timeout', '10000000', '-analyzeduration', '200000', '-probesize', '100000'];
    case 'hls':
    case 'http-file':
      // Files and VOD playlists are read at their own pace, not as fast as the relay delivers.
      return ['-re', '-rw_timeout', '10000000'];
    default:
      return [];
  }
}

/** What ffmpeg writes to stdout: MPEG-TS, or WebM for what MPEG-TS cannot carry (VP9, AV1). */
export type PullOutput = 'mpegts' | 'webm';

/** The container a target is read out of ffmpeg in: WebM sources (VP9/AV1/Opus) stay WebM. */
export function pullOutputOf(kind: PullKind, url: URL): PullOutput {
  return kind === 'http-file' && url.pathname.toLowerCase().endsWith('.webm') ? 'webm' : 'mpegts';
}

/** ffmpeg output options of each container, flushed per packet (WebM clusters of at most 100 ms). */
const OUTPUT_OPTIONS: Record<PullOutput, readonly string[]> = {
  mpegts: ['-f', 'mpegts', '-muxdelay', '0', '-muxpreload', '0'],
  webm: ['-f', 'webm', '-live', '1', '-cluster_time_limit', '100'],
};

/** The whole argument list reading `url` as a `kind` source into `output` on stdout. */
export function pullArgs(kind: PullKind, url: string, output: PullOutput = 'mpegts'): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-fflags', '+genpts+discardcorrupt', '-analyzeduration', '1000000', '-probesize', '1000000'],
    // Later options win: the kind's own probe settings replace the defaults above.
    ...inputOptions(kind),
    ...['-i', url],
    ...['-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy', '-dn', '-sn'],
    ...OUTPUT_OPTIONS[output],
    ...['-flush_packets', '1', 'pipe:1'],
  ];
}
