/**
 * What the two AAC elementary-stream readers share (ISO/IEC 13818-1 stream_types 0x0F ADTS and
 * 0x11 LATM/LOAS; ISO/IEC 14496-3): a frame may continue into the next PES, the first frame that
 * starts in a PES takes that PES's PTS while the following ones step by their sample count, and
 * a change of sample rate, channels or object type announces a new track before its first frame.
 */
import { aacCodecString } from '../../codecs/aac.js';
import type { AudioTrack } from '../../stream/track.js';
import { AudioClock, type EsOutput } from './es-reader.js';

/** The parts of an AAC configuration that decide the track and the frame timing. */
export interface AacFrameFormat {
  readonly sampleRate: number;
  readonly channels: number;
  readonly objectType: number;
  readonly samplesPerFrame: number;
}

/** One AAC track's frames across PES boundaries: carried bytes, PES PTS, clock and track. */
export class AacEsFrames {
  private current: AudioTrack | undefined;
  private readonly clock = new AudioClock();
  /** Bytes of a frame that continues in the next PES. */
  private carry: Uint8Array | undefined;
  /** The PTS of the PES being read, until the first frame that starts in it takes it. */
  private pendingPts: number | undefined;

  constructor(private readonly trackId: number) {}

  /** Starts a PES: its payload joined onto the carried bytes, and how many carried bytes lead it. */
  begin(payload: Uint8Array, pts: number | undefined): { data: Uint8Array; carried: number } {
    this.pendingPts = pts;
    const carry = this.carry;
    if (!carry) {
      return { data: payload, carried: 0 };
    }
    this.carry = undefined;
    const data = new Uint8Array(carry.length + payload.length);
    data.set(carry);
    data.set(payload, carry.length);
    return { data, carried: carry.length };
  }

  /** Keeps the bytes of `data` from `offset` on for the next PES. */
  keep(data: Uint8Array, offset: number): void {
    this.carry = data.slice(offset);
  }

  /**
   * Sends one raw AAC frame. `ascOf` gives the AudioSpecificConfig, asked only when the track
   * changes; a frame that starts inside carried bytes continues the previous PES's timeline.
   */
  emit(
    payload: Uint8Array,
    format: AacFrameFormat,
    ascOf: () => Uint8Array,
    startsInThisPes: boolean,
    out: EsOutput,
  ): void {
    const codecString = aacCodecString(format.objectType);
    const track = this.current;
    if (
      !track ||
      track.sampleRate !== format.sampleRate ||
      track.channels !== format.channels ||
      track.codecString !== codecString
    ) {
      this.current = {
        kind: 'audio',
        id: this.trackId,
        codec: 'aac',
        timescale: format.sampleRate,
        config: ascOf(),
        codecString,
        sampleRate: format.sampleRate,
        channels: format.channels,
      };
      out.track(this.current);
    }
    const dts = this.clock.at(startsInThisPes ? this.pendingPts : undefined, format.sampleRate);
    if (startsInThisPes) {
      this.pendingPts = undefined;
    }
    this.clock.advance(format.samplesPerFrame);
    out.unit({ trackId: this.trackId, dts, pts: dts, key: true, data: payload });
  }
}
