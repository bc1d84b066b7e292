/**
 * AAC in ADTS (ISO/IEC 13818-1 stream_type 0x0F; ISO/IEC 14496-3 §1.A.2 / ISO/IEC 13818-7 §6.2):
 * each PES payload holds one or more ADTS frames, and a frame may continue into the next PES.
 * The first frame starting in a PES takes its PTS, the following ones step by 1024 samples.
 */
import { type AdtsFrame, adtsToAudioSpecificConfig, parseAdtsFrames } from '../../codecs/aac.js';
import { ParseError } from '../../errors.js';
import { AacEsFrames } from './aac-es-frames.js';
import { type EsOutput, type EsReader, unitCopy } from './es-reader.js';

/** Largest ADTS frame (13-bit aac_frame_length): what may be carried over to the next PES. */
const MAX_FRAME = 0x1fff;

/** Finds the next ADTS sync word (0xFFF, layer 0) at or after `from`; -1 when none. */
function nextSync(data: Uint8Array, from: number): number {
  for (let at = from; at + 1 < data.length; at++) {
    if (data[at] === 0xff && ((data[at + 1] as number) & 0xf6) === 0xf0) {
      return at;
    }
  }
  return -1;
}

/** The whole frames at the start of `data`, and the ParseError that stopped the scan, if any. */
function framesUntilError(data: Uint8Array): { frames: AdtsFrame[]; consumed: number; error?: ParseError } {
  try {
    return parseAdtsFrames(data);
  } catch (error) {
    if (!(error instanceof ParseError)) {
      throw error;
    }
    const before = parseAdtsFrames(data.subarray(0, error.offset ?? 0));
    return { frames: before.frames, consumed: error.offset ?? 0, error };
  }
}

/** Reads an ADTS elementary stream into one AAC track. */
export class AdtsEsReader implements EsReader {
  private readonly frames: AacEsFrames;

  constructor(trackId: number) {
    this.frames = new AacEsFrames(trackId);
  }

  /** Splits one PES payload into frames; a changed header configuration announces a new track first. */
  pes(payload: Uint8Array, pts: number | undefined, _dts: number | undefined, out: EsOutput): void {
    const { data, carried } = this.frames.begin(payload, pts);
    let offset = 0;
    while (offset < data.length) {
      const { frames, consumed, error } = framesUntilError(data.subarray(offset));
      for (const frame of frames) {
        this.emit(frame, offset + frame.offset >= carried, out);
      }
      offset += consumed;
      if (!error) {
        break;
      }
      const sync = nextSync(data, offset + 1);
      const skipped = (sync < 0 ? data.length : sync) - offset;
      out.drop(`ADTS: ${error.message}; ${skipped} bytes skipped`);
      offset += skipped;
    }
    const rest = data.length - offset;
    if (rest > 0 && rest <= MAX_FRAME) {
      this.frames.keep(data, offset);
    } else if (rest > 0) {
      out.drop(`ADTS: ${rest} bytes that cannot be a frame`);
    }
  }

  private emit(frame: AdtsFrame, startsInThisPes: boolean, out: EsOutput): void {
    const config = frame.config;
    if (frame.rawDataBlocks !== 1) {
      out.drop(`ADTS frame with ${frame.rawDataBlocks} raw data blocks (1 is supported)`);
      return;
    }
    if (config.channels === 0) {
      out.drop('ADTS frame with channel_configuration 0 (a program_config_element) is not supported');
      return;
    }
    this.frames.emit(
      unitCopy(out, frame.payload),
      config,
      () => adtsToAudioSpecificConfig(config),
      startsInThisPes,
      out,
    );
  }
}
