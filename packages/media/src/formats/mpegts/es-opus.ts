/**
 * Opus in MPEG-TS (Xiph.Org "Encapsulation of Opus in MPEG-2 Transport Stream" §5-§6): private
 * stream_type 0x06 registered as 'Opus', channels from the extension descriptor, and each PES
 * payload a run of opus_control_header + Opus packet access units. The OpusHead of the track is
 * built for mapping family 0 (mono, stereo); start/end trim is not carried.
 */
import { buildOpusHead, OPUS_SAMPLE_RATE, opusCodecString, opusPacketSamples } from '../../codecs/opus.js';
import { ParseError } from '../../errors.js';
import type { AudioTrack } from '../../stream/track.js';
import { AudioClock, type EsOutput, type EsReader, unitCopy } from './es-reader.js';

/** The 11-bit control_header_prefix 0x3FF. */
const PREFIX_MASK = 0xffe0;
const PREFIX = 0x7fe0;

/** Reads an Opus elementary stream into one track. */
export class OpusEsReader implements EsReader {
  private current: AudioTrack | undefined;
  private readonly clock = new AudioClock();

  constructor(
    private readonly trackId: number,
    private readonly channels: number,
  ) {}

  /** Splits one PES payload into Opus packets. */
  pes(payload: Uint8Array, pts: number | undefined, _dts: number | undefined, out: EsOutput): void {
    let offset = 0;
    let first = true;
    while (offset < payload.length) {
      if (offset + 3 > payload.length) {
        out.drop(`Opus: ${payload.length - offset} bytes after the last access unit`);
        return;
      }
      const prefix = ((payload[offset] as number) << 8) | (payload[offset + 1] as number);
      if ((prefix & PREFIX_MASK) !== PREFIX) {
        out.drop('Opus: no opus_control_header prefix; rest of the PES skipped');
        return;
      }
      const flags = payload[offset + 1] as number;
      let at = offset + 2;
      let size = 0;
      let byte = 255;
      while (byte === 255 && at < payload.length) {
        byte = payload[at++] as number;
        size += byte;
      }
      at += (flags & 0x10 ? 2 : 0) + (flags & 0x08 ? 2 : 0);
      if (flags & 0x04) {
        at += 1 + (payload[at] ?? 0);
      }
      const end = at + size;
      if (byte === 255 || size === 0 || end > payload.length) {
        out.drop('Opus: access unit overruns the PES');
        return;
      }
      this.packet(payload.subarray(at, end), first ? pts : undefined, out);
      first = false;
      offset = end;
    }
  }

  private packet(packet: Uint8Array, pts: number | undefined, out: EsOutput): void {
    let samples: number;
    try {
      samples = opusPacketSamples(packet);
    } catch (error) {
      if (error instanceof ParseError) {
        out.drop(`Opus: ${error.message}`);
        return;
      }
      throw error;
    }
    if (!this.current) {
      this.current = {
        kind: 'audio',
        id: this.trackId,
        codec: 'opus',
        timescale: OPUS_SAMPLE_RATE,
        config: buildOpusHead({ channels: this.channels, preSkip: 0 }),
        codecString: opusCodecString(),
        sampleRate: OPUS_SAMPLE_RATE,
        channels: this.channels,
      };
      out.track(this.current);
    }
    const dts = this.clock.at(pts, OPUS_SAMPLE_RATE);
    this.clock.advance(samples);
    out.unit({ trackId: this.trackId, dts, pts: dts, key: true, data: unitCopy(out, packet) });
  }
}
