/**
 * Which media sections of an RTSP source are read in process, and whether ffmpeg would read
 * more: H.264 (RFC 6184 modes 0 and 1), H.265 (RFC 7798 without DONL), AAC as `mpeg4-generic`
 * (RFC 3640) or as MP4A-LATM with its config in the SDP (RFC 6416) and Opus (RFC 7587) are ours;
 * H.264 interleaved mode, H.265 with decoding-order numbers, LATM with in-band configs and MPEG-TS
 * over RTP (RFC 2250) are ffmpeg's; anything
 * else (G.711, MJPEG, …) no path of this service carries, and is left out with its reason.
 */
import type { SdpMedia, SessionDescription } from './rtsp-sdp.js';

/** Codecs read in process. */
export type RtspCodec = 'h264' | 'h265' | 'aac' | 'latm' | 'opus';

/** One media section read in process. */
export interface RtspTrackPlan {
  readonly codec: RtspCodec;
  readonly media: SdpMedia;
}

/** What to do with a source. */
export interface RtspPlan {
  /** The sections read in process: at most one video (first) and one audio. */
  readonly tracks: readonly RtspTrackPlan[];
  /** Sections left out, with why. */
  readonly leftOut: readonly string[];
  /** A section left out that an ffmpeg child would carry: the source is better read through ffmpeg. */
  readonly ffmpegReads: boolean;
}

type Verdict = RtspCodec | { readonly ffmpeg: boolean; readonly reason: string };

function verdict(media: SdpMedia): Verdict {
  const name = `${media.type} ${media.encoding}/${media.clockRate}`;
  switch (media.encoding) {
    case 'H264': {
      const mode = media.fmtp.get('packetization-mode') ?? '0';
      return mode === '0' || mode === '1'
        ? 'h264'
        : { ffmpeg: true, reason: `${name} in packetization-mode ${mode} (interleaved)` };
    }
    case 'H265': {
      const donDiff = Number(media.fmtp.get('sprop-max-don-diff') ?? 0);
      return donDiff === 0 ? 'h265' : { ffmpeg: true, reason: `${name} with decoding-order numbers` };
    }
    case 'MPEG4-GENERIC': {
      const mode = media.fmtp.get('mode')?.toLowerCase();
      const config = media.fmtp.get('config') ?? '';
      if (media.type === 'audio' && (mode === 'aac-hbr' || mode === 'aac-lbr') && /^([0-9a-f]{2}){2,}$/i.test(config)) {
        return 'aac';
      }
      return { ffmpeg: false, reason: `${name} in mode ${mode ?? 'generic'}` };
    }
    case 'OPUS':
      return media.clockRate === 48000 ? 'opus' : { ffmpeg: false, reason: `${name} (Opus runs at 48000)` };
    case 'MP4A-LATM': {
      const inBand = media.fmtp.get('cpresent') !== '0';
      const config = media.fmtp.get('config') ?? '';
      return !inBand && /^([0-9a-f]{2})+$/i.test(config)
        ? 'latm'
        : { ffmpeg: true, reason: `${name} with its configuration in band` };
    }
    case 'MP2T':
      return { ffmpeg: true, reason: name };
    default:
      return { ffmpeg: false, reason: `${name} is not a codec this service carries` };
  }
}

/** Decides how to read a source described by `description`. */
export function planRtsp(description: SessionDescription): RtspPlan {
  let video: RtspTrackPlan | undefined;
  let audio: RtspTrackPlan | undefined;
  const leftOut: string[] = [];
  let ffmpegReads = false;
  for (const media of description.media) {
    if (!media.protocol.toUpperCase().startsWith('RTP/AVP')) {
      leftOut.push(`${media.type} over ${media.protocol}`);
      continue;
    }
    const result = verdict(media);
    if (typeof result !== 'string') {
      leftOut.push(result.reason);
      ffmpegReads ||= result.ffmpeg;
      continue;
    }
    const isVideo = result === 'h264' || result === 'h265';
    if (isVideo ? video : audio) {
      leftOut.push(`${media.type} ${media.encoding}: a second ${isVideo ? 'video' : 'audio'} track`);
      continue;
    }
    if (isVideo) {
      video = { codec: result, media };
    } else {
      audio = { codec: result, media };
    }
  }
  const tracks = [video, audio].filter((track) => track !== undefined);
  return { tracks, leftOut, ffmpegReads };
}
