/**
 * The retention cascade (frameworks.md §1.10): an asset's own override wins, then its stream's
 * override, then the tenant's default for the class, then the service default (DVR and clips 30
 * days, VOD kept). Days count from when the asset became complete (a recording's end, a clip's
 * creation, a VOD's processing); 0 days keeps the asset until it is deleted.
 */

/** Classes of stored media with a retention of their own (chapters go with their recording). */
export type RetentionClass = 'DVR' | 'CLIP' | 'VOD';

/** Every retention class. */
export const RETENTION_CLASSES: readonly RetentionClass[] = ['VOD', 'DVR', 'CLIP'];

/** Where an effective retention comes from. */
export type RetentionSource = 'TENANT_DEFAULT' | 'PER_STREAM_OVERRIDE' | 'PER_ASSET_OVERRIDE' | 'TIER_ENTITLEMENT';

/** The service default per class, days (0: kept until deleted). */
export const DEFAULT_RETENTION_DAYS: Readonly<Record<RetentionClass, number>> = { DVR: 30, CLIP: 30, VOD: 0 };

/** Longest retention in days that can be set (ten years). */
export const MAX_RETENTION_DAYS = 3650;

const DAY_MS = 86_400_000;

/** What decides one asset's retention. */
export interface RetentionInputs {
  readonly kind: RetentionClass;
  /** When the days start: the asset's completion; null while it is still being made (never expires). */
  readonly since: Date | null;
  /** The asset's own override: absent, null (kept until deleted) or its end. */
  readonly assetUntil?: Date | null | undefined;
  /** The stream's override for the class, days. */
  readonly streamDays?: number | null | undefined;
  /** The tenant's default for the class, days. */
  readonly tenantDays?: number | null | undefined;
}

/** How long an asset is kept. */
export interface EffectiveRetention {
  /** Whole days left (an override by time) or the days that apply (0: kept until deleted). */
  readonly retentionDays: number;
  /** When it expires; null: never (or not before it is complete). */
  readonly retentionUntil: Date | null;
  readonly source: RetentionSource;
}

/** The effective retention of one asset at `now`. */
export function effectiveRetention(inputs: RetentionInputs, now: Date): EffectiveRetention {
  if (inputs.assetUntil !== undefined) {
    const until = inputs.assetUntil;
    const days = until ? Math.max(0, Math.ceil((until.getTime() - now.getTime()) / DAY_MS)) : 0;
    return { retentionDays: days, retentionUntil: until, source: 'PER_ASSET_OVERRIDE' };
  }
  const [days, source]: [number, RetentionSource] =
    inputs.streamDays != null && inputs.kind !== 'VOD'
      ? [inputs.streamDays, 'PER_STREAM_OVERRIDE']
      : inputs.tenantDays != null
        ? [inputs.tenantDays, 'TENANT_DEFAULT']
        : [DEFAULT_RETENTION_DAYS[inputs.kind], 'TIER_ENTITLEMENT'];
  const until = days > 0 && inputs.since ? new Date(inputs.since.getTime() + days * DAY_MS) : null;
  return { retentionDays: days, retentionUntil: until, source };
}

/** True once an asset's retention has run out. */
export function isExpired(retention: EffectiveRetention, now: Date): boolean {
  return retention.retentionUntil !== null && retention.retentionUntil.getTime() <= now.getTime();
}
