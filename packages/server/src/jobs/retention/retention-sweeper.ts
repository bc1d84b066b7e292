/**
 * The retention sweeper: every interval (hourly by default) it walks finished clips, recordings
 * and VOD assets, and deletes those whose effective retention has run out — their objects on
 * storage, then their rows — through the same removal the delete mutations use, so the
 * artifact-deleted events go out as for a delete. A recording some clip still needs is kept
 * until its last clip goes (clips play the recording's segments). Several nodes may sweep at
 * once: removals are idempotent and only the one that deletes the row reports it.
 */
import type { Logger } from '@airwave/media';
import {
  effectiveRetention as effectiveRetentionOf,
  isExpired,
  type RetentionClass,
} from '../../domain/retention/effective-retention.js';
import type { RetentionStore, SweepCandidate } from '../../domain/retention/retention.store.js';

/** Rows read per query. */
const PAGE = 500;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** How expired assets are removed. */
export interface SweepRemovals<Recording, Clip, Vod> {
  recording(recording: Recording): Promise<void>;
  clip(clip: Clip): Promise<void>;
  /** Absent when VOD is not served by this process. */
  vod?(asset: Vod): Promise<void>;
}

/** What one sweep removed. */
export interface SweepResult {
  readonly clips: number;
  readonly recordings: number;
  readonly vod: number;
  /** Expired recordings kept because clips still use them. */
  readonly keptForClips: number;
}

/** Deletes expired media on a timer. */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly deps: {
      readonly store: RetentionStore;
      readonly remove: SweepRemovals<
        Awaited<ReturnType<RetentionStore['recordingCandidates']>>[number]['asset'],
        Awaited<ReturnType<RetentionStore['clipCandidates']>>[number]['asset'],
        Awaited<ReturnType<RetentionStore['vodCandidates']>>[number]['asset']
      >;
      readonly log: Logger;
      readonly intervalMs: number;
      readonly now?: () => Date;
    },
  ) {}

  /** Sweeps now and then every interval. */
  start(): void {
    const tick = () => {
      void this.sweep().catch((error: unknown) => this.deps.log.error({ err: error }, 'retention sweep failed'));
    };
    tick();
    this.timer = setInterval(tick, this.deps.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep under way. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep (a sweep already under way is shared). */
  sweep(): Promise<SweepResult> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweepOnce(): Promise<SweepResult> {
    const { store, remove } = this.deps;
    const clips = await this.each(
      (after) => store.clipCandidates(after, PAGE),
      'CLIP',
      async (clip) => {
        await remove.clip(clip);
        return true;
      },
    );
    let keptForClips = 0;
    const recordings = await this.each(
      (after) => store.recordingCandidates(after, PAGE),
      'DVR',
      async (recording) => {
        if (await store.hasClips(recording.id)) {
          keptForClips++;
          return false;
        }
        await remove.recording(recording);
        return true;
      },
    );
    const removeVod = remove.vod?.bind(remove);
    const vod = removeVod
      ? await this.each(
          (after) => store.vodCandidates(after, PAGE),
          'VOD',
          async (asset) => {
            await removeVod(asset);
            return true;
          },
        )
      : 0;
    const result = { clips, recordings, vod, keptForClips };
    if (clips + recordings + vod > 0) {
      this.deps.log.info(result, 'retention sweep deleted expired media');
    }
    return result;
  }

  /** Walks candidates page by page, removing the expired ones; answers how many went. */
  private async each<T extends { readonly id: string }>(
    page: (afterId: string) => Promise<SweepCandidate<T>[]>,
    kind: RetentionClass,
    removeOne: (asset: T) => Promise<boolean | undefined>,
  ): Promise<number> {
    let after = FIRST_ID;
    let removed = 0;
    for (;;) {
      const rows = await page(after);
      const now = this.deps.now?.() ?? new Date();
      for (const { asset, inputs } of rows) {
        if (!isExpired(effectiveRetentionOf(inputs, now), now)) {
          continue;
        }
        try {
          if ((await removeOne(asset)) !== false) {
            await this.deps.store.clearAssetOverride(kind, asset.id);
            removed++;
          }
        } catch (error) {
          this.deps.log.warn({ err: error, kind, id: asset.id }, 'expired media not deleted; retried next sweep');
        }
      }
      if (rows.length < PAGE) {
        return removed;
      }
      after = rows[rows.length - 1]?.asset.id ?? after;
    }
  }
}
