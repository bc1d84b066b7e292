/**
 * Test-only source of real media: ffmpeg encodes into an MP4 (90 kHz video timescale), ffprobe
 * lists its streams (with the ISO BMFF decoder configuration as extradata) and packets (with
 * pts, dts, flags, file position), and the packet bytes are read back as MediaUnits.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVpcC } from '../codecs/vp9.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { Track } from '../stream/track.js';
import { VIDEO_TIMESCALE } from '../stream/track.js';

/** Tracks and units read from an MP4 that ffmpeg wrote. */
export interface EncodedMedia {
  /** The MP4 ffmpeg wrote. */
  readonly file: string;
  readonly tracks: readonly Track[];
  /** Every packet in dts order across tracks, timestamps shifted by `shiftSeconds`. */
  readonly units: readonly MediaUnit[];
  /** Seconds added to every timestamp so the first (possibly negative) dts becomes non-negative. */
  readonly shiftSeconds: number;
}

interface ProbeStream {
  index: number;
  codec_name: string;
  codec_type: string;
  codec_tag_string?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  time_base: string;
  extradata?: string;
  profile?: string;
}

interface ProbePacket {
  stream_index: number;
  pts?: number;
  dts?: number;
  size: string;
  pos: string;
  flags: string;
}

let toolsFound: boolean | undefined;

/** Whether ffmpeg and ffprobe can be run (asked once); tests skip by name when not. */
export function hasFfmpeg(): boolean {
  toolsFound ??=
    spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0 &&
    spawnSync('ffprobe', ['-version'], { stdio: 'ignore' }).status === 0;
  return toolsFound;
}

/** The `skip` option of tests that run ffmpeg/ffprobe: false when both run, else the reason. */
export function ffmpegSkip(): string | false {
  return hasFfmpeg() ? false : 'ffmpeg/ffprobe not installed (run scripts/setup.sh)';
}

/** Runs a tool and returns stdout; throws with stderr when it fails. */
export function run(tool: 'ffmpeg' | 'ffprobe', args: readonly string[]): { stdout: string; stderr: string } {
  const result = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

/** Runs ffprobe with `-of json` and returns the parsed answer. */
export function ffprobeJson(args: readonly string[]): Record<string, unknown> {
  return JSON.parse(run('ffprobe', ['-v', 'error', '-of', 'json', ...args]).stdout) as Record<string, unknown>;
}

/**
 * Encodes `ffmpegArgs` (inputs and codec options, no output) into `<dir>/<name>` and reads it
 * back. Video configs are the avcC/hvcC/av1C records of the MP4; VP9 gets a vpcC record built
 * from the stream's parameters (profile 0, 8 bit, 4:2:0) since ffmpeg keeps none as extradata.
 */
export function encodeTestMedia(dir: string, ffmpegArgs: readonly string[], name = 'source.mp4'): EncodedMedia {
  const file = join(dir, name);
  run('ffmpeg', ['-v', 'error', '-y', ...ffmpegArgs, '-video_track_timescale', String(VIDEO_TIMESCALE), file]);
  const streams = (ffprobeJson(['-show_streams', '-show_data', file]).streams ?? []) as ProbeStream[];
  const packets = (ffprobeJson(['-show_packets', file]).packets ?? []) as ProbePacket[];
  const bytes = readFileSync(file);
  const tracks = streams.map(trackOf);
  let shiftSeconds = 0;
  for (const packet of packets) {
    const track = tracks[packet.stream_index];
    if (track && packet.dts !== undefined) {
      shiftSeconds = Math.max(shiftSeconds, Math.ceil(-packet.dts / track.timescale));
    }
  }
  const units: MediaUnit[] = packets.map((packet) => {
    const track = tracks[packet.stream_index];
    if (!track || packet.dts === undefined || packet.pts === undefined) {
      throw new Error(`packet of stream ${packet.stream_index} without track or timestamps`);
    }
    const shift = shiftSeconds * track.timescale;
    const pos = Number(packet.pos);
    return {
      trackId: track.id,
      dts: packet.dts + shift,
      pts: packet.pts + shift,
      key: packet.flags.includes('K'),
      data: new Uint8Array(bytes.subarray(pos, pos + Number(packet.size))),
    };
  });
  const timescaleOf = (unit: MediaUnit): number => tracks[unit.trackId - 1]?.timescale ?? 1;
  units.sort((a, b) => a.dts / timescaleOf(a) - b.dts / timescaleOf(b));
  return { file, tracks, units, shiftSeconds };
}

function trackOf(stream: ProbeStream): Track {
  const config = hexdump(stream.extradata ?? '');
  const id = stream.index + 1;
  if (stream.codec_type === 'video') {
    const codec = ({ h264: 'h264', hevc: 'h265', av1: 'av1', vp9: 'vp9' } as const)[
      stream.codec_name as 'h264' | 'hevc' | 'av1' | 'vp9'
    ];
    if (!codec) {
      throw new Error(`unexpected video codec ${stream.codec_name}`);
    }
    const hex = (i: number): string => (config[i] ?? 0).toString(16).padStart(2, '0');
    return {
      kind: 'video',
      id,
      codec,
      timescale: VIDEO_TIMESCALE,
      config: codec === 'vp9' ? buildVpcC({ profile: 0, level: 31, bitDepth: 8 }) : config,
      codecString: codec === 'h264' ? `avc1.${hex(1)}${hex(2)}${hex(3)}` : (stream.codec_tag_string ?? codec),
      width: stream.width ?? 0,
      height: stream.height ?? 0,
    };
  }
  const codec = ({ aac: 'aac', opus: 'opus' } as const)[stream.codec_name as 'aac' | 'opus'];
  if (!codec) {
    throw new Error(`unexpected audio codec ${stream.codec_name}`);
  }
  const sampleRate = Number(stream.sample_rate);
  return {
    kind: 'audio',
    id,
    codec,
    timescale: sampleRate,
    config,
    codecString: codec === 'aac' ? 'mp4a.40.2' : 'opus',
    sampleRate,
    channels: stream.channels ?? 0,
  };
}

/** Bytes of an ffprobe `-show_data` hex dump ("00000000: 0164 001e ...  ascii"). */
function hexdump(dump: string): Uint8Array {
  const out: number[] = [];
  for (const line of dump.split('\n')) {
    const hex = line.slice(10, 49).replaceAll(' ', '');
    for (let i = 0; i + 1 < hex.length; i += 2) {
      out.push(Number.parseInt(hex.slice(i, i + 2), 16));
    }
  }
  return Uint8Array.from(out);
}
