/**
 * The multivariant playlist of the LL-HLS presentation (RFC 8216bis §4.4.6): one EXT-X-STREAM-INF
 * for the video media playlist with CODECS, RESOLUTION, BANDWIDTH, FRAME-RATE and an AUDIO group
 * whose EXT-X-MEDIA rendition is the audio media playlist; audio-only streams list the audio
 * playlist as the variant.
 */
import type { AudioTrack, VideoTrack } from '../../../stream/track.js';
import { withUriQuery } from '../../shared/http-types.js';

/** Group id of the audio rendition. */
export const AUDIO_GROUP = 'audio';

/** What the multivariant playlist advertises. */
export interface LlHlsVariant {
  readonly video: VideoTrack | undefined;
  readonly audio: AudioTrack | undefined;
  /** Peak bits per second of the variant (video + audio). */
  readonly bandwidth: number;
  /** Mean bits per second, when measured. */
  readonly averageBandwidth: number | undefined;
  /** Frames per second (declared or measured). */
  readonly frameRate: number | undefined;
  /** Query appended to every URI (e.g. `jwt=...`). */
  readonly uriQuery: string | undefined;
}

/** Renders the multivariant playlist; returns undefined when there is no track at all. */
export function renderLlHlsMultivariant(variant: LlHlsVariant): string | undefined {
  const { video, audio } = variant;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:9'];
  const attributes = [`BANDWIDTH=${Math.max(1, Math.round(variant.bandwidth))}`];
  if (variant.averageBandwidth !== undefined && variant.averageBandwidth > 0) {
    attributes.push(`AVERAGE-BANDWIDTH=${Math.round(variant.averageBandwidth)}`);
  }
  const codecs = [video?.codecString, audio?.codecString].filter((codec) => codec !== undefined);
  attributes.push(`CODECS="${codecs.join(',')}"`);
  if (video) {
    if (video.width > 0 && video.height > 0) {
      attributes.push(`RESOLUTION=${video.width}x${video.height}`);
    }
    if (variant.frameRate !== undefined && variant.frameRate > 0) {
      attributes.push(`FRAME-RATE=${variant.frameRate.toFixed(3)}`);
    }
    if (audio) {
      attributes.push(`AUDIO="${AUDIO_GROUP}"`);
      lines.push(
        `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="${AUDIO_GROUP}",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,` +
          `CHANNELS="${audio.channels}",URI="${withUriQuery('audio.m3u8', variant.uriQuery)}"`,
      );
    }
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, withUriQuery('video.m3u8', variant.uriQuery));
  } else if (audio) {
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, withUriQuery('audio.m3u8', variant.uriQuery));
  } else {
    return undefined;
  }
  lines.push('');
  return lines.join('\n');
}
