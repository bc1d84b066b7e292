/**
 * Test support for the codec tests: runs the real ffmpeg to produce bitstreams and pulls
 * samples out of the containers it writes (IVF, Ogg RFC 3533, ISO BMFF boxes). Not used at runtime.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ParseError, UnsupportedError } from '../errors.js';

/** Runs ffmpeg with a lavfi source and returns what it writes to stdout. */
export function ffmpeg(args: readonly string[]): Uint8Array {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, SVT_LOG: '1' },
  });
  if (result.status !== 0) {
    throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr.toString()}`);
  }
  return new Uint8Array(result.stdout);
}

/** Where an encoder test's three frames come from. */
export interface PictureSource {
  /** `WxH`. */
  readonly size: string;
  /** Frames per second as ffmpeg takes it (default 30). */
  readonly rate?: string;
  /** lavfi source (default testsrc2); testsrc (RGB) keeps odd sizes that testsrc2 rounds to even. */
  readonly source?: string;
}

/** ffmpeg input arguments for the first three frames of a lavfi test picture. */
export function threeFrames(c: PictureSource): string[] {
  return ['-f', 'lavfi', '-i', `${c.source ?? 'testsrc2'}=size=${c.size}:rate=${c.rate ?? '30'}`, '-frames:v', '3'];
}

/** What the H.264 and H.265 tests compare of an SPS. */
export interface SpsSummary {
  readonly width: number;
  readonly height: number;
  readonly profileIdc: number;
  readonly fps?: number;
  readonly bitDepth: number;
  readonly chromaFormatIdc: number;
}

/** The SpsSummary fields of a parsed SPS. */
export function spsSummary(sps: SpsSummary): SpsSummary {
  const { width, height, profileIdc, fps, bitDepth, chromaFormatIdc } = sps;
  return { width, height, profileIdc, fps, bitDepth, chromaFormatIdc };
}

/** Frames of an IVF file (VP9/AV1). */
export function ivfFrames(data: Uint8Array): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: Uint8Array[] = [];
  let offset = view.getUint16(6, true);
  while (offset + 12 <= data.length) {
    const size = view.getUint32(offset, true);
    frames.push(data.subarray(offset + 12, offset + 12 + size));
    offset += 12 + size;
  }
  return frames;
}

/** Packets of a single-stream Ogg file, joined across pages (RFC 3533 lacing). */
export function oggPackets(data: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let pending: number[] = [];
  let offset = 0;
  while (offset + 27 <= data.length) {
    const segments = data[offset + 26] ?? 0;
    let body = offset + 27 + segments;
    for (let i = 0; i < segments; i++) {
      const lace = data[offset + 27 + i] ?? 0;
      pending.push(...data.subarray(body, body + lace));
      body += lace;
      if (lace < 255) {
        packets.push(Uint8Array.from(pending));
        pending = [];
      }
    }
    offset = body;
  }
  return packets;
}

/** Payload of the first ISO BMFF box of type `fourcc` anywhere in `data` (found by its type bytes). */
export function findBox(data: Uint8Array, fourcc: string): Uint8Array | undefined {
  const type = Buffer.from(fourcc, 'latin1');
  const at = Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(type);
  if (at < 4) {
    return undefined;
  }
  const size = new DataView(data.buffer, data.byteOffset).getUint32(at - 4);
  return data.subarray(at + 4, at - 4 + size);
}

/** Hex of bytes, for fixtures and messages. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** DecoderSpecificInfo (the AudioSpecificConfig) inside an esds box payload (ISO/IEC 14496-1 §7.2.6). */
export function ascFromEsds(esds: Uint8Array): Uint8Array | undefined {
  let offset = 4;
  while (offset < esds.length) {
    const tag = esds[offset++];
    let size = 0;
    for (let i = 0; i < 4; i++) {
      const byte = esds[offset++] ?? 0;
      size = (size << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) {
        break;
      }
    }
    if (tag === 0x03) {
      const flags = esds[offset + 2] ?? 0;
      offset += 3 + ((flags & 0x80) !== 0 ? 2 : 0) + ((flags & 0x20) !== 0 ? 2 : 0);
    } else if (tag === 0x04) {
      offset += 13;
    } else if (tag === 0x05) {
      return esds.subarray(offset, offset + size);
    } else {
      offset += size;
    }
  }
  return undefined;
}

/** ffmpeg arguments that write a fragmented MP4 to stdout (so its sample entry boxes can be read). */
export const MP4_TO_STDOUT = ['-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4', 'pipe:1'] as const;

/** Runs ffmpeg writing to a temporary file with `extension` (for muxers that need to seek) and returns its bytes. */
export function ffmpegToFile(args: readonly string[], extension: string): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-codecs-'));
  const path = join(dir, `out.${extension}`);
  try {
    ffmpeg([...args, '-y', path]);
    return new Uint8Array(readFileSync(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bad input: running `run` must throw `error`. */
export interface RejectCase {
  readonly name: string;
  readonly run: () => unknown;
  readonly error: typeof ParseError | typeof UnsupportedError;
}

/** One `rejects <name>` test per case. */
export function testRejects(cases: readonly RejectCase[]): void {
  for (const c of cases) {
    test(`rejects ${c.name}`, () => {
      assert.throws(c.run, c.error);
    });
  }
}
