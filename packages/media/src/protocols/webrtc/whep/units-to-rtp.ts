/**
 * Hub units to RTP payloads for WebRTC viewers: H.264 access units (AVCC, 4-byte lengths) are
 * split per RFC 6184 with the track's SPS/PPS sent in band before every IDR (a browser joining
 * or recovering needs them; the avcC is out of band otherwise); Opus packets go one per RTP
 * packet (RFC 7587 §4.2). Payloads of a unit are computed once and shared by every viewer.
 */
import { H264_NAL, parseAvcC } from '../../../codecs/h264.js';
import { splitLengthPrefixed } from '../../../codecs/nal.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import type { VideoTrack } from '../../../stream/track.js';
import { packetizeH264, type RtpPayload } from '../../shared/rtp/h264-packetizer.js';

const byTrack = new WeakMap<VideoTrack, H264UnitPacketizer>();

/** Turns H.264 units of one track into RTP payloads, remembering the result per unit. */
export class H264UnitPacketizer {
  /** The packetizer of `track`, one for all the viewers of that track (its payloads are computed once per unit). */
  static forTrack(track: VideoTrack): H264UnitPacketizer {
    let packetizer = byTrack.get(track);
    if (!packetizer) {
      packetizer = new H264UnitPacketizer(track);
      byTrack.set(track, packetizer);
    }
    return packetizer;
  }

  private readonly parameterSets: Uint8Array[];
  private readonly cache = new WeakMap<MediaUnit, RtpPayload[]>();

  constructor(
    /** The track whose SPS/PPS go before every IDR. */
    readonly track: VideoTrack,
  ) {
    const avcC = parseAvcC(track.config);
    this.parameterSets = [...avcC.sps, ...avcC.pps];
  }

  /** The RTP payloads of one access unit (marker on the last). */
  payloads(unit: MediaUnit): RtpPayload[] {
    let payloads = this.cache.get(unit);
    if (!payloads) {
      const nals = splitLengthPrefixed(unit.data, 4).filter((nal) => {
        const type = (nal[0] as number) & 0x1f;
        return type !== H264_NAL.sps && type !== H264_NAL.pps && type !== H264_NAL.aud;
      });
      payloads = packetizeH264(unit.key ? [...this.parameterSets, ...nals] : nals);
      this.cache.set(unit, payloads);
    }
    return payloads;
  }
}

/** Opus: the packet is the payload. */
export function opusPayloads(unit: MediaUnit): RtpPayload[] {
  return [{ payload: unit.data, marker: false }];
}
