/**
 * VOD processing (issue 18): the uploaded original is copied from storage to a work directory,
 * ffprobe validates it (a non-video or corrupt file fails with ffprobe's reason), H.264/H.265/
 * AV1/VP9 with AAC/Opus (or no audio) are remuxed without re-encoding, anything else is first
 * transcoded to H.264/AAC with progress; then ffmpeg writes CMAF segments (fragmented at
 * keyframes) with a DASH MPD and HLS playlists over the same segments, classic MPEG-TS HLS when
 * the codecs fit MPEG-TS, a progressive MP4 with `moov` first, a poster and a 10 × 10 sprite sheet
 * with its WebVTT; every file goes to storage under the asset's prefix. Jobs run in ffmpeg
 * children, at most `concurrency` at once.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@airwave/media';
import { sourceKey, type VodAssetRecord, type VodProcessed } from '../../domain/vod/vod-asset.js';
import type { VodProcessingQueue } from '../../domain/vod/vod-uploads.service.js';
import type { ObjectStorage } from '../../storage/object-storage.js';

/** Video codecs copied as they are (ffprobe names). */
const REMUX_VIDEO = new Set(['h264', 'hevc', 'av1', 'vp9']);
/** Audio codecs copied as they are. */
const REMUX_AUDIO = new Set(['aac', 'opus']);
/** Codecs classic HLS (MPEG-TS) can carry. */
const TS_VIDEO = new Set(['h264', 'hevc']);
const SPRITE_COLUMNS = 10;
const SPRITE_TILE_WIDTH = 160;

/** Where a job reports. */
export interface VodJobReports {
  processed(id: string, result: VodProcessed): Promise<void>;
  failed(id: string, reason: string): Promise<void>;
  progressed(id: string, percent: number): Promise<void>;
}

/** What the jobs need. */
export interface VodProcessingOptions {
  readonly storage: ObjectStorage;
  readonly reports: VodJobReports;
  readonly log: Logger;
  /** Jobs at once (default 1). */
  readonly concurrency?: number;
  /** Work directories go here (default the OS temp directory). */
  readonly workDir?: string;
}

interface Probe {
  durationMs: number;
  bitrateKbps: number | null;
  video: { codec: string; width: number; height: number } | undefined;
  audio: { codec: string } | undefined;
}

/** A processing failure whose message is the reason shown to the owner. */
class ProcessingFailed extends Error {}

/** Runs a tool to its end; rejects with its last stderr line on failure. */
function runTool(command: string, args: readonly string[], onStdout?: (text: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** The WebVTT of a sprite sheet: one cue per tile over the duration. */
export function spriteVtt(durationMs: number, tiles: number, tileWidth: number, tileHeight: number): string {
  const stamp = (ms: number) => {
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor((ms % 3_600_000) / 60_000);
    const s = (ms % 60_000) / 1000;
    return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
  };
  const lines = ['WEBVTT', ''];
  const step = durationMs / tiles;
  for (let i = 0; i < tiles; i++) {
    const x = (i % SPRITE_COLUMNS) * tileWidth;
    const y = Math.floor(i / SPRITE_COLUMNS) * tileHeight;
    lines.push(`${stamp(Math.round(i * step))} --> ${stamp(Math.round((i + 1) * step))}`);
    lines.push(`sprite.jpg#xywh=${x},${y},${tileWidth},${tileHeight}`, '');
  }
  return lines.join('\n');
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

/** The processing queue: validates, remuxes or transcodes, packages, stores. */
export class VodProcessing implements VodProcessingQueue {
  private readonly waiting: VodAssetRecord[] = [];
  private running = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: VodProcessingOptions) {}

  /** Queues an asset; a free slot starts it at once. */
  enqueue(asset: VodAssetRecord): void {
    this.waiting.push(asset);
    this.next();
  }

  /** Resolves when no job runs or waits. */
  settled(): Promise<void> {
    return this.running === 0 && this.waiting.length === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.idle.add(resolve));
  }

  private next(): void {
    while (this.running < (this.options.concurrency ?? 1) && this.waiting.length > 0) {
      const asset = this.waiting.shift() as VodAssetRecord;
      this.running++;
      void this.run(asset).finally(() => {
        this.running--;
        this.next();
        if (this.running === 0 && this.waiting.length === 0) {
          for (const resolve of this.idle) {
            resolve();
          }
          this.idle.clear();
        }
      });
    }
  }

  private async run(asset: VodAssetRecord): Promise<void> {
    const { reports, log } = this.options;
    const work = await mkdtemp(join(this.options.workDir ?? tmpdir(), 'airwave-vod-'));
    const started = Date.now();
    try {
      const result = await this.process(asset, work);
      await reports.processed(asset.id, result);
      log.info({ assetId: asset.id, ms: Date.now() - started, outputs: result.outputs }, 'VOD asset processed');
    } catch (error) {
      const reason =
        error instanceof ProcessingFailed ? error.message : `processing failed: ${(error as Error).message}`;
      log.warn({ assetId: asset.id, reason }, 'VOD processing failed');
      await reports
        .failed(asset.id, reason)
        .catch((err: unknown) => log.error({ err }, 'could not record a VOD failure'));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private async process(asset: VodAssetRecord, work: string): Promise<VodProcessed> {
    const { storage, reports } = this.options;
    const source = join(work, 'source');
    const read = await storage.get(sourceKey(asset));
    await pipeline(read.body, createWriteStream(source));
    const probe = await probeVideo(source);
    const video = probe.video as NonNullable<Probe['video']>;
    const remux = REMUX_VIDEO.has(video.codec) && (!probe.audio || REMUX_AUDIO.has(probe.audio.codec));
    let input = source;
    let codecs = { video: video.codec, audio: probe.audio?.codec ?? null };
    if (!remux) {
      input = join(work, 'transcoded.mp4');
      await this.transcode(asset, source, input, probe);
      codecs = { video: 'h264', audio: probe.audio ? 'aac' : null };
    }
    await reports.progressed(asset.id, remux ? 20 : 80);
    const out = join(work, 'out');
    await mkdir(join(out, 'cmaf'), { recursive: true });
    const maps = ['-map', '0:v:0', ...(probe.audio ? ['-map', '0:a:0'] : [])];
    // Every remux output reads the same streams and copies them (no re-encode).
    const copyStreams = ['-hide_banner', '-nostdin', '-v', 'error', '-i', input, ...maps, '-c', 'copy'];
    const outputs = ['cmaf', 'dash', 'mp4', 'poster', 'sprite'];
    const jobs = [
      runTool('ffmpeg', [
        ...copyStreams,
        ...(codecs.video === 'hevc' ? ['-tag:v', 'hvc1'] : []),
        '-movflags',
        '+faststart',
        join(out, 'video.mp4'),
      ]),
      runTool('ffmpeg', [
        ...copyStreams,
        '-f',
        'dash',
        '-seg_duration',
        '4',
        '-use_template',
        '1',
        '-use_timeline',
        '1',
        '-hls_playlist',
        '1',
        '-hls_master_name',
        'index.m3u8',
        '-init_seg_name',
        'init-$RepresentationID$.m4s',
        '-media_seg_name',
        'seg-$RepresentationID$-$Number%05d$.m4s',
        join(out, 'cmaf', 'index.mpd'),
      ]),
      this.images(input, out, probe),
    ];
    if (TS_VIDEO.has(codecs.video) && (codecs.audio === null || codecs.audio === 'aac')) {
      await mkdir(join(out, 'hls'), { recursive: true });
      jobs.push(
        runTool('ffmpeg', [
          ...copyStreams,
          '-f',
          'hls',
          '-hls_time',
          '4',
          '-hls_playlist_type',
          'vod',
          '-hls_segment_filename',
          join(out, 'hls', 'seg-%05d.ts'),
          join(out, 'hls', 'index.m3u8'),
        ]),
      );
      outputs.push('hls');
    }
    // The copies are disk-bound and the images decode keyframes only: run them side by side.
    await Promise.all(jobs);
    await reports.progressed(asset.id, remux ? 80 : 95);
    let storedBytes = (await stat(source)).size;
    for (const file of await filesUnder(out)) {
      const key = `${asset.storagePrefix}${relative(out, file).split('\\').join('/')}`;
      const { size } = await stat(file);
      await storage.put(key, createReadStream(file));
      storedBytes += size;
    }
    return {
      durationMs: probe.durationMs,
      width: video.width,
      height: video.height,
      videoCodec: codecs.video,
      audioCodec: codecs.audio,
      bitrateKbps: probe.bitrateKbps,
      storedBytes,
      outputs,
    };
  }

  private async transcode(asset: VodAssetRecord, source: string, target: string, probe: Probe): Promise<void> {
    let last = 0;
    await runTool(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-i',
        source,
        '-map',
        '0:v:0',
        ...(probe.audio ? ['-map', '0:a:0'] : []),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '23',
        '-pix_fmt',
        'yuv420p',
        '-force_key_frames',
        'expr:gte(t,n_forced*2)',
        ...(probe.audio ? ['-c:a', 'aac', '-b:a', '128k'] : []),
        '-progress',
        'pipe:1',
        target,
      ],
      (text) => {
        const match = /out_time_us=(\d+)/.exec(text);
        if (match && probe.durationMs > 0) {
          const percent = Math.min(75, Math.floor((Number(match[1]) / 1000 / probe.durationMs) * 75));
          if (percent >= last + 5) {
            last = percent;
            void this.options.reports.progressed(asset.id, percent);
          }
        }
      },
    );
  }

  private async images(input: string, out: string, probe: Probe): Promise<void> {
    const video = probe.video as NonNullable<Probe['video']>;
    const seconds = probe.durationMs / 1000;
    await runTool('ffmpeg', [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-ss',
      (seconds * 0.1).toFixed(3),
      '-skip_frame',
      'nokey',
      '-i',
      input,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      join(out, 'poster.jpg'),
    ]);
    const tiles = SPRITE_COLUMNS * SPRITE_COLUMNS;
    const tileHeight = Math.max(2, Math.round((SPRITE_TILE_WIDTH * video.height) / video.width / 2) * 2);
    await runTool('ffmpeg', [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-skip_frame',
      'nokey',
      '-i',
      input,
      '-vf',
      `fps=${tiles}/${seconds.toFixed(3)},scale=${SPRITE_TILE_WIDTH}:${tileHeight},tile=${SPRITE_COLUMNS}x${SPRITE_COLUMNS}`,
      '-frames:v',
      '1',
      '-q:v',
      '4',
      join(out, 'sprite.jpg'),
    ]);
    await writeFile(join(out, 'sprite.vtt'), spriteVtt(probe.durationMs, tiles, SPRITE_TILE_WIDTH, tileHeight));
  }
}
