/**
 * A stream's chapter settings (frameworks.md §1.1, §1.7): `dvrChapterMode` WINDOW_SIZED (the
 * default: the node's `AIRWAVE_DVR_CHAPTER_SECONDS`), FIXED_INTERVAL (the stream's own
 * `dvrChapterIntervalSeconds`, at least an hour) or NONE (one chapter per recording, cut at its
 * end). Set through updateStream; read by the recorder when a recording starts.
 */
import { ValidationError } from '../errors.js';
import type { RetentionStore, StreamMediaSettings } from '../retention/retention.store.js';

/** How a recording is cut into chapters. */
export type DvrChapterMode = 'WINDOW_SIZED' | 'FIXED_INTERVAL' | 'NONE';

/** Shortest FIXED_INTERVAL chapter, seconds. */
export const MIN_CHAPTER_INTERVAL_SECONDS = 3600;
/** Longest FIXED_INTERVAL chapter, seconds (a week). */
export const MAX_CHAPTER_INTERVAL_SECONDS = 7 * 86_400;

/** A stream's chapter settings as they apply. */
export interface ChapterSettingsView {
  readonly mode: DvrChapterMode;
  /** FIXED_INTERVAL only. */
  readonly intervalSeconds: number | null;
}

/** The chapter fields of updateStream's input. */
export interface ChapterSettingsInput {
  readonly dvrChapterMode?: DvrChapterMode | null;
  readonly dvrChapterIntervalSeconds?: number | null;
}

/** What updateStream writes (undefined: unchanged). */
export type ChapterSettingsPatch = Pick<Partial<StreamMediaSettings>, 'dvrChapterMode' | 'dvrChapterIntervalSeconds'>;

/** Reads and checks streams' chapter settings. */
export class ChapterSettings {
  constructor(
    private readonly deps: {
      readonly store: Pick<RetentionStore, 'streamSettings' | 'updateStreamSettings'>;
      /** The node's chapter length (WINDOW_SIZED), seconds; 0: one chapter per recording. */
      readonly nodeIntervalSeconds: number;
      readonly now?: () => Date;
    },
  ) {}

  /** The settings of a stream (callers check the tenant). */
  async of(streamId: string): Promise<ChapterSettingsView> {
    const settings = await this.deps.store.streamSettings(streamId);
    const mode = (settings.dvrChapterMode ?? 'WINDOW_SIZED') as DvrChapterMode;
    return { mode, intervalSeconds: mode === 'FIXED_INTERVAL' ? settings.dvrChapterIntervalSeconds : null };
  }

  /** How a new recording of the stream is cut: its mode and chapter length, ms (0: one chapter per recording). */
  async plan(streamId: string): Promise<{ mode: DvrChapterMode; intervalMs: number }> {
    const { mode, intervalSeconds } = await this.of(streamId);
    const seconds =
      mode === 'NONE' ? 0 : mode === 'FIXED_INTERVAL' ? (intervalSeconds ?? 0) : this.deps.nodeIntervalSeconds;
    return { mode, intervalMs: seconds * 1000 };
  }

  /**
   * Checks updateStream's chapter fields for a tenant's stream (found by the caller) before the
   * stream is updated; answers how to write them afterwards, or undefined when none are given.
   */
  async checkUpdate(
    tenantId: string,
    streamId: string,
    input: ChapterSettingsInput,
  ): Promise<{ apply(): Promise<void> } | undefined> {
    const patch = await this.check(streamId, input);
    return patch && { apply: () => this.apply(tenantId, streamId, patch) };
  }

  /** Checks chapter fields against the stream's current settings; undefined when none are given. */
  async check(streamId: string, input: ChapterSettingsInput): Promise<ChapterSettingsPatch | undefined> {
    const interval = input.dvrChapterIntervalSeconds;
    if (input.dvrChapterMode == null && interval == null) {
      return undefined;
    }
    const current = await this.of(streamId);
    const mode = input.dvrChapterMode ?? current.mode;
    if (mode !== 'FIXED_INTERVAL') {
      if (interval != null) {
        throw new ValidationError(
          'input.dvrChapterIntervalSeconds',
          'fixed_interval_only',
          'input.dvrChapterIntervalSeconds applies to dvrChapterMode FIXED_INTERVAL only',
        );
      }
      return { dvrChapterMode: mode, dvrChapterIntervalSeconds: null };
    }
    const seconds = interval ?? current.intervalSeconds;
    if (seconds == null) {
      throw new ValidationError(
        'input.dvrChapterIntervalSeconds',
        'required',
        'input.dvrChapterIntervalSeconds is required with dvrChapterMode FIXED_INTERVAL',
      );
    }
    if (
      !Number.isInteger(seconds) ||
      seconds < MIN_CHAPTER_INTERVAL_SECONDS ||
      seconds > MAX_CHAPTER_INTERVAL_SECONDS
    ) {
      throw new ValidationError(
        'input.dvrChapterIntervalSeconds',
        'range',
        `input.dvrChapterIntervalSeconds must be ${MIN_CHAPTER_INTERVAL_SECONDS} to ${MAX_CHAPTER_INTERVAL_SECONDS}`,
      );
    }
    return { dvrChapterMode: mode, dvrChapterIntervalSeconds: seconds };
  }

  /** Writes checked settings of a tenant's stream. */
  async apply(tenantId: string, streamId: string, patch: ChapterSettingsPatch): Promise<void> {
    await this.deps.store.updateStreamSettings(tenantId, streamId, patch, this.deps.now?.() ?? new Date());
  }
}
