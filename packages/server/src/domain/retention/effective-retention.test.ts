import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveRetention, isExpired } from './effective-retention.js';

const now = new Date('2026-11-25T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe('effective retention', () => {
  it('falls back to the service default: 30 days for DVR and clips, VOD kept', () => {
    const dvr = effectiveRetention({ kind: 'DVR', since: daysAgo(31) }, now);
    assert.equal(dvr.source, 'TIER_ENTITLEMENT');
    assert.equal(dvr.retentionDays, 30);
    assert.equal(isExpired(dvr, now), true);
    const vod = effectiveRetention({ kind: 'VOD', since: daysAgo(3000) }, now);
    assert.deepEqual(vod, { retentionDays: 0, retentionUntil: null, source: 'TIER_ENTITLEMENT' });
    assert.equal(isExpired(vod, now), false);
  });

  it('prefers the asset override, then the stream override, then the tenant default', () => {
    const base = { kind: 'CLIP' as const, since: daysAgo(10), tenantDays: 7 };
    assert.equal(effectiveRetention(base, now).source, 'TENANT_DEFAULT');
    assert.equal(isExpired(effectiveRetention(base, now), now), true);
    const stream = effectiveRetention({ ...base, streamDays: 20 }, now);
    assert.equal(stream.source, 'PER_STREAM_OVERRIDE');
    assert.equal(stream.retentionUntil?.toISOString(), new Date(daysAgo(10).getTime() + 20 * 86_400_000).toISOString());
    assert.equal(isExpired(stream, now), false);
    const kept = effectiveRetention({ ...base, streamDays: 20, assetUntil: null }, now);
    assert.deepEqual(kept, { retentionDays: 0, retentionUntil: null, source: 'PER_ASSET_OVERRIDE' });
    const soon = effectiveRetention({ ...base, assetUntil: new Date(now.getTime() + 36 * 3_600_000) }, now);
    assert.equal(soon.retentionDays, 2);
  });

  it('keeps an asset with 0 days, and one still being made', () => {
    assert.equal(isExpired(effectiveRetention({ kind: 'DVR', since: daysAgo(99), tenantDays: 0 }, now), now), false);
    assert.equal(isExpired(effectiveRetention({ kind: 'DVR', since: null, tenantDays: 1 }, now), now), false);
  });

  it('ignores stream overrides for VOD (they are per class DVR and CLIP)', () => {
    const vod = effectiveRetention({ kind: 'VOD', since: daysAgo(5), streamDays: 1, tenantDays: 10 }, now);
    assert.equal(vod.source, 'TENANT_DEFAULT');
  });
});
