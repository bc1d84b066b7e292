/**
 * VOD processing (issue 18, ADR 0052): ffprobe validates the uploaded original (read in place on
 * the local backend, copied to a work directory from S3; a non-video or corrupt file fails with
 * ffprobe's reason), H.264/H.265/AV1/VP9 with AAC/Opus (or no audio) are remuxed without
 * re-encoding, anything else is first transcoded to H.264/AAC with progress. Then, in two steps:
 * 1. one ffmpeg run writes the streaming outputs, CMAF segments (fragmented at keyframes) with a
 *    DASH MPD and HLS playlists over them, and classic MPEG-TS HLS when the codecs fit; once they
 *    are stored the asset is READY (playable) at once;
 * 2. the progressive MP4 with `moov` first, the poster and the 10 × 10 sprite sheet with its
 *    WebVTT follow; the asset's outputs grow and progress reaches 100.
 * Jobs run in ffmpeg children, at most `concurrency` at once. A job re-queued after a restart
 * redoes only what is missing (an asset already READY gets step 2 only).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@airwave/media';
import { sourceKey, type VodAssetRecord, type VodProcessed } from '../../domain/vod/vod-asset.js';
import type { VodProcessingQueue } from '../../domain/vod/vod-uploads.service.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { JobQueue } from '../job-queue.js';
import { SPRITE_COLUMNS, SPRITE_TILES, spriteVtt } from '../thumbnails/sprite-sheet.js';
import { type Probe, ProcessingFailed, probeVideo, runTool, storeDirectory } from './vod-tools.js';

/** Video codecs copied as they are (ffprobe names). */
const REMUX_VIDEO = new Set(['h264', 'hevc', 'av1', 'vp9']);
/** Audio codecs copied as they are. */
const REMUX_AUDIO = new Set(['aac', 'opus']);
/** Codecs classic HLS (MPEG-TS) can carry. */
const TS_VIDEO = new Set(['h264', 'hevc']);
const SPRITE_TILE_WIDTH = 160;
/** ffmpeg quiet unless failing, never reading stdin. */
const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];

/** Output options copying the video and the first audio track as they are. */
function copyStreams(probe: Probe): string[] {
  return ['-map', '0:v:0', ...(probe.audio ? ['-map', '0:a:0'] : []), '-c', 'copy'];
}

/** Where a job reports. */
export interface VodJobReports {
  /** The streaming outputs are stored: the asset plays. False when the asset left PROCESSING meanwhile (deleted). */
  playable(id: string, result: VodProcessed): Promise<boolean>;
  /** Every output is stored. False when the asset is no longer READY (deleted meanwhile). */
  finished(id: string, outputs: readonly string[], storedBytes: number): Promise<boolean>;
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
  /** Work directories go here (default the store's scratch directory, so outputs move in; else the OS temp directory). */
  readonly workDir?: string;
}

/** The file processing reads and what it holds. */
interface Prepared {
  readonly input: string;
  readonly probe: Probe;
  readonly remux: boolean;
  readonly codecs: { video: string; audio: string | null };
}

/** The asset was deleted while its job ran: what the job stored is removed again. */
class AssetGone extends Error {}

/** The processing queue: validates, remuxes or transcodes, packages, stores. */
export class VodProcessing implements VodProcessingQueue {
  private readonly queue: JobQueue<VodAssetRecord>;

  constructor(private readonly options: VodProcessingOptions) {
    this.queue = new JobQueue((asset) => this.run(asset), options.concurrency ?? 1);
  }

  /** Queues an asset; a free slot starts it at once. */
  enqueue(asset: VodAssetRecord): void {
    this.queue.push(asset);
  }

  /** Resolves when no job runs or waits. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Shutdown: kills the running jobs and drops the waiting ones (the next start re-queues them); resolves with how many were left. */
  stop(): Promise<number> {
    return this.queue.stop();
  }

  private async run(asset: VodAssetRecord): Promise<void> {
    const { reports, log, storage } = this.options;
    const work = await mkdtemp(join(this.options.workDir ?? storage.scratchDir ?? tmpdir(), 'vod-'));
    const started = Date.now();
    try {
      const outputs = await this.process(asset, work, started);
      log.info({ assetId: asset.id, ms: Date.now() - started, outputs }, 'VOD asset processed');
    } catch (error) {
      if (this.queue.stopped) {
        log.info({ assetId: asset.id }, 'VOD processing interrupted by shutdown: the next start resumes it');
        return;
      }
      if (error instanceof AssetGone) {
        log.info({ assetId: asset.id }, 'VOD asset deleted while processing');
        await storage
          .deletePrefix(asset.storagePrefix)
          .catch((err: unknown) => log.warn({ err }, 'could not remove a deleted VOD asset'));
        return;
      }
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

  private async process(asset: VodAssetRecord, work: string, started: number): Promise<readonly string[]> {
    const { storage, reports, log } = this.options;
    const prepared = await this.prepare(asset, work);
    const { probe, codecs, remux } = prepared;
    const ts = TS_VIDEO.has(codecs.video) && (codecs.audio === null || codecs.audio === 'aac');
    const outputs = ['cmaf', 'dash', ...(ts ? ['hls'] : [])];
    let storedBytes = asset.storedBytes ?? asset.sizeBytes;
    if (asset.status === 'PROCESSING') {
      await reports.progressed(asset.id, remux ? 10 : 75);
      const first = join(work, 'first');
      await this.streaming(prepared.input, first, probe, ts);
      storedBytes = asset.sizeBytes + (await storeDirectory(storage, first, asset.storagePrefix));
      const result: VodProcessed = {
        durationMs: probe.durationMs,
        width: probe.video.width,
        height: probe.video.height,
        videoCodec: codecs.video,
        audioCodec: codecs.audio,
        bitrateKbps: probe.bitrateKbps,
        storedBytes,
        outputs,
      };
      if (!(await reports.playable(asset.id, result))) {
        throw new AssetGone();
      }
      log.info({ assetId: asset.id, ms: Date.now() - started, outputs }, 'VOD asset playable');
    }
    await reports.progressed(asset.id, remux ? 60 : 90);
    const rest = join(work, 'rest');
    await mkdir(rest, { recursive: true });
    await Promise.all([this.mp4(prepared, rest), this.images(prepared, rest)]);
    storedBytes += await storeDirectory(storage, rest, asset.storagePrefix);
    const all = [...outputs, 'mp4', 'poster', 'sprite'];
    if (!(await reports.finished(asset.id, all, storedBytes))) {
      throw new AssetGone();
    }
    return all;
  }

  /** The file to read (in place on the local backend), probed; transcoded first when its codecs cannot be copied. */
  private async prepare(asset: VodAssetRecord, work: string): Promise<Prepared> {
    const { storage } = this.options;
    let source = storage.localFile?.(sourceKey(asset));
    if (source === undefined) {
      source = join(work, 'source');
      const read = await storage.get(sourceKey(asset));
      await pipeline(read.body, createWriteStream(source));
    }
    const probe = await probeVideo(source);
    const remux = REMUX_VIDEO.has(probe.video.codec) && (!probe.audio || REMUX_AUDIO.has(probe.audio.codec));
    if (remux) {
      return { input: source, probe, remux, codecs: { video: probe.video.codec, audio: probe.audio?.codec ?? null } };
    }
    const input = join(work, 'transcoded.mp4');
    await this.transcode(asset, source, input, probe);
    return { input, probe, remux, codecs: { video: 'h264', audio: probe.audio ? 'aac' : null } };
  }

  /** One ffmpeg run reading the input once: CMAF + DASH + CMAF HLS, and TS HLS when `ts`. */
  private async streaming(input: string, out: string, probe: Probe, ts: boolean): Promise<void> {
    await mkdir(join(out, 'cmaf'), { recursive: true });
    const copy = copyStreams(probe);
    const args = [
      ...QUIET,
      '-i',
      input,
      ...copy,
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
    ];
    if (ts) {
      await mkdir(join(out, 'hls'), { recursive: true });
      args.push(
        ...copy,
        '-f',
        'hls',
        '-hls_time',
        '4',
        '-hls_playlist_type',
        'vod',
        '-hls_segment_filename',
        join(out, 'hls', 'seg-%05d.ts'),
        join(out, 'hls', 'index.m3u8'),
      );
    }
    await runTool('ffmpeg', args);
  }

  /** The progressive MP4, `moov` first. */
  private async mp4({ input, probe, codecs }: Prepared, out: string): Promise<void> {
    await runTool('ffmpeg', [
      ...QUIET,
      '-i',
      input,
      ...copyStreams(probe),
      ...(codecs.video === 'hevc' ? ['-tag:v', 'hvc1'] : []),
      '-movflags',
      '+faststart',
      join(out, 'video.mp4'),
    ]);
  }

  private async transcode(asset: VodAssetRecord, source: string, target: string, probe: Probe): Promise<void> {
    let last = 0;
    await runTool(
      'ffmpeg',
      [
        ...QUIET,
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
          const percent = Math.min(70, Math.floor((Number(match[1]) / 1000 / probe.durationMs) * 70));
          if (percent >= last + 5) {
            last = percent;
            void this.options.reports.progressed(asset.id, percent);
          }
        }
      },
    );
  }

  /** The poster (a keyframe at 10 %) and the sprite sheet of keyframes with its WebVTT. */
  private async images({ input, probe }: Prepared, out: string): Promise<void> {
    const seconds = probe.durationMs / 1000;
    await runTool('ffmpeg', [
      ...QUIET,
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
    const tileHeight = Math.max(2, Math.round((SPRITE_TILE_WIDTH * probe.video.height) / probe.video.width / 2) * 2);
    await runTool('ffmpeg', [
      ...QUIET,
      '-skip_frame',
      'nokey',
      '-i',
      input,
      '-vf',
      `fps=${SPRITE_TILES}/${seconds.toFixed(3)},scale=${SPRITE_TILE_WIDTH}:${tileHeight},tile=${SPRITE_COLUMNS}x${SPRITE_TILES / SPRITE_COLUMNS}`,
      '-frames:v',
      '1',
      '-q:v',
      '4',
      join(out, 'sprite.jpg'),
    ]);
    await writeFile(join(out, 'sprite.vtt'), spriteVtt(seconds, SPRITE_TILE_WIDTH, tileHeight, 'sprite.jpg'));
  }
}
