/**
 * AAC → Opus for WebRTC viewers of RTMP/SRT streams: one supervised ffmpeg per stream, shared by
 * all its WHEP viewers and stopped when the last one leaves. AAC frames go in as ADTS (ISO/IEC
 * 13818-7 §6.2) on stdin; Ogg Opus (RFC 7845) comes out on stdout, one page per 20 ms packet.
 * Opus timestamps continue the first AAC frame's time at 48 kHz, so audio stays on the stream's
 * timeline. A child that dies is restarted (at most a few times a minute) while viewers remain.
 */
import { type AudioSpecificConfig, adtsHeader, parseAudioSpecificConfig } from '../../../codecs/aac.js';
import { OPUS_SAMPLE_RATE, opusPacketSamples } from '../../../codecs/opus.js';
import { FfmpegProcess, LOW_DELAY_INPUT_ARGS } from '../../../ffmpeg/ffmpeg-process.js';
import { OggPacketReader } from '../../../formats/ogg/ogg-packets.js';
import type { LiveStream } from '../../../hub/live-stream.js';
import type { Logger } from '../../../ports.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { type AudioTrack, audioTrackOf } from '../../../stream/track.js';
import type { OpusSources } from '../webrtc-service.js';
import type { OpusSource } from './whep-session.js';

/** ffmpeg arguments: ADTS in, low-delay Opus in Ogg out, a page per packet. */
export const AAC_TO_OPUS_ARGS = [
  ...LOW_DELAY_INPUT_ARGS,
  '-f',
  'aac',
  '-i',
  'pipe:0',
  '-c:a',
  'libopus',
  '-b:a',
  '96k',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-application',
  'lowdelay',
  '-frame_duration',
  '20',
  '-f',
  'ogg',
  '-page_duration',
  '20000',
  '-flush_packets',
  '1',
  'pipe:1',
] as const;

const MAX_RESTARTS_PER_MINUTE = 3;
/** Input held in ffmpeg's stdin pipe before frames are dropped (a stuck child). */
const MAX_PENDING_INPUT = 256 * 1024;

/** One stream's transcoder. */
class StreamTranscoder implements OpusSource {
  private readonly listeners = new Set<(unit: MediaUnit) => void>();
  private process: FfmpegProcess | undefined;
  private reader = new OggPacketReader();
  private headersSeen = 0;
  private base48: number | undefined;
  private samples = 0;
  private asc: AudioSpecificConfig | undefined;
  private track: AudioTrack | undefined;
  private readonly detach: () => void;
  private restarts: number[] = [];
  private closed = false;

  constructor(
    private readonly stream: LiveStream,
    private readonly log: Logger,
    private readonly command: string | undefined,
  ) {
    this.detach = stream.attach(
      {
        onDescription: (description) => {
          const audio = audioTrackOf(description);
          this.track = audio?.codec === 'aac' ? audio : undefined;
          this.asc = this.track ? parseAudioSpecificConfig(this.track.config) : undefined;
        },
        onUnit: (unit) => this.input(unit),
        onEnd: () => this.close(),
      },
      false,
    );
    this.start();
  }

  subscribe(onUnit: (unit: MediaUnit) => void): () => void {
    this.listeners.add(onUnit);
    return () => this.listeners.delete(onUnit);
  }

  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.detach();
    this.process?.stop();
    this.listeners.clear();
  }

  private start(): void {
    this.reader = new OggPacketReader();
    this.headersSeen = 0;
    this.base48 = undefined;
    this.samples = 0;
    const child = new FfmpegProcess({
      args: AAC_TO_OPUS_ARGS,
      ...(this.command ? { command: this.command } : {}),
      onData: (chunk) => this.output(chunk),
      onExit: (reason, expected) => {
        if (!expected && !this.closed) {
          this.log.warn({ streamId: this.stream.streamId, reason }, 'AAC→Opus transcoder stopped');
          this.restart();
        }
      },
    });
    this.process = child;
    this.log.info({ streamId: this.stream.streamId, pid: child.pid }, 'AAC→Opus transcoder started');
  }

  private restart(): void {
    const now = Date.now();
    this.restarts = this.restarts.filter((at) => now - at < 60_000);
    if (this.restarts.length >= MAX_RESTARTS_PER_MINUTE) {
      this.log.error({ streamId: this.stream.streamId }, 'AAC→Opus transcoder keeps failing; viewers get no audio');
      return;
    }
    this.restarts.push(now);
    this.start();
  }

  private input(unit: MediaUnit): void {
    const process = this.process;
    if (!this.track || !this.asc || unit.trackId !== this.track.id || !process?.running) {
      return;
    }
    if (process.pendingInput > MAX_PENDING_INPUT) {
      return;
    }
    if (this.base48 === undefined) {
      this.base48 = Math.round((unit.pts * OPUS_SAMPLE_RATE) / this.track.sampleRate);
    }
    process.write(adtsHeader(this.asc, unit.data.length));
    process.write(unit.data);
  }

  private output(chunk: Buffer): void {
    let packets: Uint8Array[];
    try {
      packets = this.reader.push(chunk);
    } catch (error) {
      this.log.error({ streamId: this.stream.streamId, err: (error as Error).message }, 'bad Ogg from ffmpeg');
      this.process?.stop();
      this.restart();
      return;
    }
    for (const packet of packets) {
      if (this.headersSeen < 2) {
        this.headersSeen++;
        continue;
      }
      if (this.base48 === undefined || !this.track) {
        continue;
      }
      const pts = this.base48 + this.samples;
      this.samples += opusPacketSamples(packet);
      const unit: MediaUnit = { trackId: this.track.id, pts, dts: pts, key: true, data: packet };
      for (const listener of this.listeners) {
        listener(unit);
      }
    }
  }
}

/** One transcoder per stream, reference-counted by its viewers. */
export class AacToOpusTranscoders implements OpusSources {
  private readonly byStream = new Map<string, { transcoder: StreamTranscoder; refs: number }>();

  constructor(
    private readonly log: Logger,
    /** ffmpeg executable (default `ffmpeg` on PATH). */
    private readonly command?: string,
  ) {}

  /** Transcoders running now. */
  get running(): number {
    return this.byStream.size;
  }

  acquire(stream: LiveStream): { source: OpusSource; release(): void } {
    let entry = this.byStream.get(stream.streamId);
    if (!entry) {
      entry = { transcoder: new StreamTranscoder(stream, this.log, this.command), refs: 0 };
      this.byStream.set(stream.streamId, entry);
    }
    const current = entry;
    current.refs++;
    let released = false;
    return {
      source: current.transcoder,
      release: () => {
        if (released) {
          return;
        }
        released = true;
        current.refs--;
        if (current.refs <= 0 && this.byStream.get(stream.streamId) === current) {
          this.byStream.delete(stream.streamId);
          current.transcoder.close();
        }
      },
    };
  }
}
