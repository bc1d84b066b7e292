/**
 * DTSC packets to the stream model: the header's tracks become the description, media packets
 * become units. DTSC times are milliseconds: video DTS is time × 90 and PTS adds the packet's
 * `offset`; audio is moved to its sample clock (MillisecondAudioClock). H.264/H.265 payloads with 1- or 2-byte NAL lengths are
 * rewritten to 4-byte lengths.
 */
import { splitLengthPrefixed, toLengthPrefixed } from '../../codecs/nal.js';
import { opusPacketSamples } from '../../codecs/opus.js';
import type { DtmiObject } from '../../formats/dtsc/dtmi.js';
import type { DtscPacket } from '../../formats/dtsc/dtsc-packet.js';
import { type DtscTrackMapping, tracksFromDtscHeader } from '../../formats/dtsc/dtsc-tracks.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { MillisecondAudioClock } from '../../stream/millisecond-audio-clock.js';
import type { StreamDescription } from '../../stream/track.js';

/** Converts one DTSC connection's packets. */
export class DtscToStream {
  private readonly byDtscId = new Map<number, DtscTrackMapping>();
  private readonly audioClocks = new Map<number, MillisecondAudioClock>();
  /** Tracks the last header left out, with why. */
  skipped: readonly string[] = [];

  /** Reads a header; returns the new description (undefined when it carries no usable track). */
  header(body: DtmiObject): StreamDescription | undefined {
    const { mappings, skipped } = tracksFromDtscHeader(body);
    this.skipped = skipped;
    this.byDtscId.clear();
    this.audioClocks.clear();
    for (const mapping of mappings) {
      this.byDtscId.set(mapping.dtscId, mapping);
    }
    return mappings.length > 0 ? { tracks: mappings.map((mapping) => mapping.track) } : undefined;
  }

  /** The unit of a media packet, or undefined for a track not carried. */
  unit(packet: Extract<DtscPacket, { kind: 'data' }>): MediaUnit | undefined {
    const mapping = this.byDtscId.get(packet.trackId);
    if (!mapping) {
      return undefined;
    }
    const track = mapping.track;
    if (track.kind === 'video') {
      const data =
        mapping.lengthSize > 0 && mapping.lengthSize !== 4
          ? toLengthPrefixed(splitLengthPrefixed(packet.data, mapping.lengthSize))
          : packet.data;
      const dts = packet.time * 90;
      return { trackId: track.id, dts, pts: dts + packet.offset * 90, key: packet.keyframe, data };
    }
    let clock = this.audioClocks.get(track.id);
    if (!clock) {
      clock = new MillisecondAudioClock(track.sampleRate);
      this.audioClocks.set(track.id, clock);
    }
    const samples = mapping.samplesPerFrame > 0 ? mapping.samplesPerFrame : opusPacketSamples(packet.data);
    const dts = clock.dts(packet.time, samples);
    return { trackId: track.id, dts, pts: dts, key: true, data: packet.data };
  }
}
