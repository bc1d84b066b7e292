/**
 * Opus → AAC for the outputs of a WHIP stream that need AAC (classic HLS in MPEG-TS): one
 * supervised ffmpeg per WHIP session. Opus packets go in as Ogg Opus (RFC 7845) on stdin; AAC-LC
 * 48 kHz stereo comes out as ADTS (ISO/IEC 13818-7 §6.2) on stdout. AAC timestamps continue the
 * first Opus packet's time, 1024 samples a frame, so the AAC track stays on the stream's timeline.
 * A child that dies ends the AAC track (logged); the publish goes on.
 */
import { buildAudioSpecificConfig, parseAdtsFrames } from '../../../codecs/aac.js';
import { buildOpusHead, opusPacketSamples } from '../../../codecs/opus.js';
import { FfmpegProcess, LOW_DELAY_INPUT_ARGS } from '../../../ffmpeg/ffmpeg-process.js';
import { OggPageWriter } from '../../../formats/ogg/ogg-writer.js';
import type { Logger } from '../../../ports.js';

/** The AudioSpecificConfig of what ffmpeg makes: AAC-LC, 48 kHz, stereo. */
export const DERIVED_AAC_CONFIG = buildAudioSpecificConfig({ objectType: 2, sampleRate: 48_000, channels: 2 });

/** ffmpeg arguments: Ogg Opus in, ADTS AAC out, flushed per frame. */
export const OPUS_TO_AAC_ARGS = [
  ...LOW_DELAY_INPUT_ARGS,
  '-f',
  'ogg',
  '-i',
  'pipe:0',
  '-c:a',
  'aac',
  '-b:a',
  '128k',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-f',
  'adts',
  '-flush_packets',
  '1',
  'pipe:1',
] as const;

/** Input held in ffmpeg's stdin before packets are dropped (a stuck child). */
const MAX_PENDING_INPUT = 256 * 1024;
const AAC_FRAME_SAMPLES = 1024;

/** One session's Opus → AAC transcoder. */
export class OpusToAac {
  private readonly process: FfmpegProcess;
  private readonly pages = new OggPageWriter(0x41697277);
  private pending: Uint8Array = new Uint8Array(0);
  private base: number | undefined;
  private samplesIn = 0;
  private framesOut = 0;
  private closed = false;

  constructor(
    private readonly log: Logger,
    /** Receives each AAC frame (raw, no ADTS header) with its time at 48 kHz. */
    private readonly onFrame: (pts: number, frame: Uint8Array) => void,
    command?: string,
  ) {
    this.process = new FfmpegProcess({
      args: OPUS_TO_AAC_ARGS,
      ...(command ? { command } : {}),
      onData: (chunk) => this.output(chunk),
      onExit: (reason, expected) => {
        if (!expected) {
          this.log.warn({ reason }, 'Opus→AAC transcoder stopped; the stream has no AAC from now on');
        }
      },
    });
    const tags = new TextEncoder().encode('OpusTags\u0007\u0000\u0000\u0000airwave\u0000\u0000\u0000\u0000');
    this.process.write(this.pages.page(buildOpusHead({ channels: 2, preSkip: 0 }), 0, { first: true }));
    this.process.write(this.pages.page(tags, 0));
  }

  /** One Opus packet at `pts` (48 kHz). */
  write(packet: Uint8Array, pts: number): void {
    if (this.closed || !this.process.running || this.process.pendingInput > MAX_PENDING_INPUT) {
      return;
    }
    this.base ??= pts;
    this.samplesIn += opusPacketSamples(packet);
    this.process.write(this.pages.page(packet, this.samplesIn));
  }

  /** Stops ffmpeg. */
  close(): void {
    this.closed = true;
    this.process.stop();
  }

  private output(chunk: Buffer): void {
    const data = new Uint8Array(this.pending.length + chunk.length);
    data.set(this.pending, 0);
    data.set(chunk, this.pending.length);
    let parsed: ReturnType<typeof parseAdtsFrames>;
    try {
      parsed = parseAdtsFrames(data);
    } catch (error) {
      this.log.error({ err: (error as Error).message }, 'ffmpeg wrote something that is not ADTS');
      this.close();
      return;
    }
    this.pending = data.slice(parsed.consumed);
    for (const frame of parsed.frames) {
      if (this.base === undefined || this.closed) {
        return;
      }
      this.onFrame(this.base + this.framesOut * AAC_FRAME_SAMPLES, frame.payload);
      this.framesOut++;
    }
  }
}
