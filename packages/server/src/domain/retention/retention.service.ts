/**
 * Retention for the API (frameworks.md §1.10): the tenant's defaults per class
 * (`mediaRetentionPolicy`, `setMediaRetentionPolicy`), a stream's overrides
 * (`setStreamRetentionOverrides`, `Stream.retentionOverrides`), an asset's own override
 * (`updateMediaRetention`, `resetMediaRetentionOverride`) and the effective retention of an
 * asset. Everything is tenant-scoped: another tenant's stream or asset answers NOT_FOUND.
 */
import { ValidationError } from '../errors.js';
import { futureTimestamp } from '../timestamps.js';
import {
  DEFAULT_RETENTION_DAYS,
  type EffectiveRetention,
  effectiveRetention,
  MAX_RETENTION_DAYS,
  RETENTION_CLASSES,
  type RetentionClass,
} from './effective-retention.js';
import type { RetentionStore } from './retention.store.js';

/** An asset as retention sees it. */
export interface RetainedAsset {
  readonly id: string;
  /** Null for uploads (VOD). */
  readonly streamId: string | null;
  /** When its days start; null while it is still being made. */
  readonly since: Date | null;
  /** An end set when the asset was made (createClip's expiresAt); its own override when no row says otherwise. */
  readonly createdUntil?: Date | null;
}

/** Finds a tenant's asset of a class by the ID the caller gave (NOT_FOUND otherwise). */
export type AssetLookup = (tenantId: string, id: string) => Promise<RetainedAsset>;

/** The tenant's defaults as the API shows them. */
export interface MediaRetentionPolicyView {
  /** Set defaults per class (absent: the service default applies). */
  readonly defaults: ReadonlyMap<RetentionClass, number>;
  /** What applies per class. */
  readonly effective: Readonly<Record<RetentionClass, number>>;
  readonly updatedAt: Date | null;
}

/** A stream's overrides. */
export interface StreamRetentionOverridesView {
  readonly streamId: string;
  readonly dvrRetentionDaysOverride: number | null;
  readonly clipRetentionDaysOverride: number | null;
}

function checkDays(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_RETENTION_DAYS) {
    throw new ValidationError(field, 'range', `${field} must be 0 (kept until deleted) to ${MAX_RETENTION_DAYS} days`);
  }
  return value;
}

/** The retention service. */
export class RetentionService {
  constructor(
    private readonly deps: {
      readonly store: RetentionStore;
      /** A tenant's stream UUID by global or raw ID (NOT_FOUND otherwise). */
      readonly streamOf: (tenantId: string, id: string) => Promise<string>;
      readonly assets: Readonly<Record<RetentionClass, AssetLookup>>;
      /** Forgets an asset's creation-time end (resetMediaRetentionOverride). */
      readonly clearCreatedUntil?: (kind: RetentionClass, id: string) => Promise<void>;
      readonly now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The tenant's defaults and what applies per class. */
  async policy(tenantId: string): Promise<MediaRetentionPolicyView> {
    const { days, updatedAt } = await this.deps.store.policies(tenantId);
    const effective = Object.fromEntries(
      RETENTION_CLASSES.map((kind) => [kind, days.get(kind) ?? DEFAULT_RETENTION_DAYS[kind]]),
    ) as Record<RetentionClass, number>;
    return { defaults: days, effective, updatedAt };
  }

  /** Sets or clears (back to the service default) the tenant's default of a class. */
  async setPolicy(
    tenantId: string,
    input: { targetType: RetentionClass; days?: number | null; clear?: boolean | null },
  ): Promise<MediaRetentionPolicyView> {
    if (!input.clear && input.days == null) {
      throw new ValidationError('input.days', 'required', 'input.days is required unless input.clear is true');
    }
    const days = input.clear ? null : checkDays(input.days as number, 'input.days');
    await this.deps.store.setPolicy(tenantId, input.targetType, days, this.now());
    return this.policy(tenantId);
  }

  /** A tenant's stream's overrides. */
  async streamOverrides(tenantId: string, streamId: string): Promise<StreamRetentionOverridesView> {
    const id = await this.deps.streamOf(tenantId, streamId);
    const settings = await this.deps.store.streamSettings(id);
    return {
      streamId: id,
      dvrRetentionDaysOverride: settings.dvrRetentionDays,
      clipRetentionDaysOverride: settings.clipRetentionDays,
    };
  }

  /** Sets or clears a stream's DVR and clip overrides; a clear flag wins over a value of its class. */
  async setStreamOverrides(
    tenantId: string,
    input: {
      streamId: string;
      dvrRetentionDaysOverride?: number | null;
      clipRetentionDaysOverride?: number | null;
      clearDvrRetentionOverride?: boolean | null;
      clearClipRetentionOverride?: boolean | null;
    },
  ): Promise<StreamRetentionOverridesView> {
    const id = await this.deps.streamOf(tenantId, input.streamId);
    const pick = (clear: boolean | null | undefined, value: number | null | undefined, field: string) =>
      clear ? null : value == null ? undefined : checkDays(value, field);
    const dvr = pick(input.clearDvrRetentionOverride, input.dvrRetentionDaysOverride, 'input.dvrRetentionDaysOverride');
    const clip = pick(
      input.clearClipRetentionOverride,
      input.clipRetentionDaysOverride,
      'input.clipRetentionDaysOverride',
    );
    if (dvr === undefined && clip === undefined) {
      throw new ValidationError(
        'input.dvrRetentionDaysOverride',
        'required',
        'set an override or a clear flag for DVR or clips',
      );
    }
    const settings = await this.deps.store.updateStreamSettings(
      tenantId,
      id,
      {
        ...(dvr !== undefined ? { dvrRetentionDays: dvr } : {}),
        ...(clip !== undefined ? { clipRetentionDays: clip } : {}),
      },
      this.now(),
    );
    return {
      streamId: id,
      dvrRetentionDaysOverride: settings.dvrRetentionDays,
      clipRetentionDaysOverride: settings.clipRetentionDays,
    };
  }

  /** Gives one asset its own retention: days from now (0: kept until deleted) or an end in the future. */
  async updateAsset(
    tenantId: string,
    input: {
      targetType: RetentionClass;
      targetId: string;
      retentionDays?: number | null;
      retentionUntil?: string | null;
    },
  ): Promise<EffectiveRetention> {
    if ((input.retentionDays == null) === (input.retentionUntil == null)) {
      throw new ValidationError(
        'input.retentionDays',
        'one_of',
        'give exactly one of input.retentionDays and input.retentionUntil',
      );
    }
    const asset = await this.deps.assets[input.targetType](tenantId, input.targetId);
    const now = this.now();
    let until: Date | null;
    if (input.retentionUntil != null) {
      until = futureTimestamp(input.retentionUntil, 'input.retentionUntil', now);
    } else {
      const days = checkDays(input.retentionDays as number, 'input.retentionDays');
      until = days === 0 ? null : new Date(now.getTime() + days * 86_400_000);
    }
    await this.deps.store.setAssetOverride(tenantId, input.targetType, asset.id, until, now);
    return this.effective(tenantId, input.targetType, asset);
  }

  /** Drops an asset's own retention: the stream's or tenant's applies again. */
  async resetAsset(
    tenantId: string,
    input: { targetType: RetentionClass; targetId: string },
  ): Promise<EffectiveRetention> {
    const asset = await this.deps.assets[input.targetType](tenantId, input.targetId);
    await this.deps.store.clearAssetOverride(input.targetType, asset.id);
    await this.deps.clearCreatedUntil?.(input.targetType, asset.id);
    return this.effective(tenantId, input.targetType, { ...asset, createdUntil: null });
  }

  /** The effective retention of a tenant's asset of a class by the ID the caller gave. */
  async effectiveOf(tenantId: string, kind: RetentionClass, id: string): Promise<EffectiveRetention> {
    return this.effective(tenantId, kind, await this.deps.assets[kind](tenantId, id));
  }

  /** The effective retention of a tenant's asset. */
  async effective(tenantId: string, kind: RetentionClass, asset: RetainedAsset): Promise<EffectiveRetention> {
    const [own, settings, { days }] = await Promise.all([
      this.deps.store.assetOverride(kind, asset.id),
      asset.streamId ? this.deps.store.streamSettings(asset.streamId) : undefined,
      this.deps.store.policies(tenantId),
    ]);
    const assetUntil = own !== undefined ? own : (asset.createdUntil ?? undefined);
    const streamDays = kind === 'DVR' ? settings?.dvrRetentionDays : settings?.clipRetentionDays;
    return effectiveRetention(
      {
        kind,
        since: asset.since,
        ...(assetUntil !== undefined ? { assetUntil } : {}),
        streamDays,
        tenantDays: days.get(kind),
      },
      this.now(),
    );
  }
}
