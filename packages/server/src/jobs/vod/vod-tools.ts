/**
 * The tools VOD processing runs (issue 18): ffmpeg/ffprobe children whose failure carries the
 * tool's last stderr line as the reason shown to the owner, ffprobe's reading of an upload, and
 * storing a directory of outputs (moved into a local store without copying) with several writes in flight (playlists and manifests last, so
 * a reader never sees a playlist before the segments it lists).
 */
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type ObjectStorage, putFile } from '../../storage/object-storage.js';
import { jobSpawnSignal } from '../job-queue.js';

/** A processing failure whose message is the reason shown to the owner. */
export class ProcessingFailed extends Error {}

/** What ffprobe says of an upload. */
export interface Probe {
  readonly durationMs: number;
  readonly bitrateKbps: number | null;
  readonly video: { codec: string; width: number; height: number };
  readonly audio: { codec: string } | undefined;
}

/** Writes to storage in flight at once while storing outputs. */
const STORE_PARALLEL = 8;

/** Runs a tool to its end (killed when the job's queue stops); rejects with ProcessingFailed carrying its last stderr line on failure. */
export function runTool(command: string, args: readonly string[], onStdout?: (text: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...jobSpawnSignal() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (onStdout) {
        onStdout(text);
      } else if (stdout.length < 4 * 1024 * 1024) {
        stdout += text;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.once('error', (error) => reject(new ProcessingFailed(`${command} could not start: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) {
        resolve(stdout);
      } else {
        const line = stderr.trim().split('\n').at(-1) ?? '';
        reject(new ProcessingFailed(`${command} failed (code ${code}): ${line}`));
      }
    });
  });
}

/** Reads what ffprobe says of the file; throws ProcessingFailed when it is not a playable video. */
export async function probeVideo(file: string): Promise<Probe> {
  let text: string;
  try {
    text = await runTool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  } catch (error) {
    const reason = (error as Error).message.replace(/^ffprobe failed \(code \d+\): /, '').replaceAll(`${file}: `, '');
    throw new ProcessingFailed(`not a readable media file: ${reason}`);
  }
  const parsed = JSON.parse(text) as {
    format?: { duration?: string; bit_rate?: string };
    streams?: {
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      disposition?: { attached_pic?: number };
    }[];
  };
  const streams = parsed.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(parsed.format?.duration);
  if (!video?.codec_name || !video.width || !video.height) {
    throw new ProcessingFailed('the file has no video track');
  }
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new ProcessingFailed('the file has no duration (corrupt or truncated)');
  }
  const bitrate = Number(parsed.format?.bit_rate);
  return {
    durationMs: Math.round(duration * 1000),
    bitrateKbps: Number.isFinite(bitrate) ? Math.round(bitrate / 1000) : null,
    video: { codec: video.codec_name, width: video.width, height: video.height },
    audio: audio?.codec_name ? { codec: audio.codec_name } : undefined,
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...(await filesUnder(path)));
    } else {
      out.push(path);
    }
  }
  return out;
}

/** Runs `work` over the items with at most `parallel` at once. */
async function eachLimited<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      await work(items[next++] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}

/**
 * Stores every file under `dir` at `prefix` + its relative path, several at once; playlists and
 * manifests go after everything else. Answers the bytes stored.
 */
export async function storeDirectory(storage: ObjectStorage, dir: string, prefix: string): Promise<number> {
  const files = await filesUnder(dir);
  const isIndex = (file: string) => file.endsWith('.m3u8') || file.endsWith('.mpd');
  let bytes = 0;
  const store = async (file: string) => {
    const key = `${prefix}${relative(dir, file).split('\\').join('/')}`;
    // Read the size before adding: `bytes += await …` would add to the total as it was before
    // the await, losing what the other parallel stores added meanwhile.
    const { size } = await stat(file);
    bytes += size;
    await putFile(storage, key, file);
  };
  await eachLimited(
    files.filter((file) => !isIndex(file)),
    STORE_PARALLEL,
    store,
  );
  await eachLimited(files.filter(isIndex), STORE_PARALLEL, store);
  return bytes;
}
