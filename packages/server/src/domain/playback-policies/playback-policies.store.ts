/**
 * SQL of playback policies: upsert for a tenant's stream (bumping the version), read by stream,
 * and the policy of a playback ID joined from `streams`.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { mediaArtifactsTable, recordingsTable } from '../recordings/recording-tables.js';
import { tenantStream } from '../streams/stream-rows.js';
import { streamsTable } from '../streams/stream-tables.js';
import { playbackPoliciesTable } from './playback-policies.tables.js';
import { type PlaybackPolicy, type PlaybackPolicyType, PUBLIC_POLICY, type ResolvedPolicy } from './playback-policy.js';

type PolicyRow = Pick<
  typeof playbackPoliciesTable.$inferSelect,
  'policyType' | 'allowedKids' | 'webhookUrl' | 'webhookSecret' | 'webhookTimeoutMs' | 'version'
>;

/** The policy a row holds (PUBLIC when there is no row); rows of other owners (VOD assets) have the same columns. */
export function toPolicy(row: PolicyRow | null | undefined): PlaybackPolicy {
  if (!row) {
    return PUBLIC_POLICY;
  }
  const { webhookUrl, webhookSecret, webhookTimeoutMs } = row;
  return {
    type: row.policyType as PlaybackPolicyType,
    allowedKids: row.allowedKids,
    webhook:
      row.policyType === 'WEBHOOK' && webhookUrl && webhookSecret && webhookTimeoutMs
        ? { url: webhookUrl, secret: webhookSecret, timeoutMs: webhookTimeoutMs }
        : undefined,
    version: row.version,
  };
}

/** The column values of a policy being written (the version is bumped by the upsert). */
export function policyValues(policy: Omit<PlaybackPolicy, 'version'>, now: Date) {
  return {
    policyType: policy.type,
    allowedKids: [...policy.allowedKids],
    webhookUrl: policy.webhook?.url ?? null,
    webhookSecret: policy.webhook?.secret ?? null,
    webhookTimeoutMs: policy.webhook?.timeoutMs ?? null,
    updatedAt: now,
  };
}

/** Reads and writes playback policy rows. */
export class PlaybackPoliciesStore {
  constructor(private readonly db: Db) {}

  /** The playback ID of a tenant's stream, or undefined when the tenant has no such stream. */
  async playbackIdOf(tenantId: string, streamId: string): Promise<string | undefined> {
    const rows = await this.db
      .select({ playbackId: streamsTable.playbackId })
      .from(streamsTable)
      .where(tenantStream(tenantId, streamId))
      .limit(1);
    return rows[0]?.playbackId;
  }

  /** The policy of a tenant's stream (PUBLIC when it has none). */
  async forStream(tenantId: string, streamId: string): Promise<PlaybackPolicy> {
    return (await this.forStreams(tenantId, [streamId])).get(streamId) ?? PUBLIC_POLICY;
  }

  /** The policies of several of a tenant's streams in one query; streams without one are absent. */
  async forStreams(tenantId: string, streamIds: readonly string[]): Promise<Map<string, PlaybackPolicy>> {
    const rows = await this.db
      .select()
      .from(playbackPoliciesTable)
      .where(
        and(inArray(playbackPoliciesTable.streamId, [...streamIds]), eq(playbackPoliciesTable.tenantId, tenantId)),
      );
    return new Map(rows.map((row) => [row.streamId, toPolicy(row)]));
  }

  /** Writes the policy of a tenant's stream; returns it with its new version. */
  async upsert(
    tenantId: string,
    streamId: string,
    policy: Omit<PlaybackPolicy, 'version'>,
    now: Date,
  ): Promise<PlaybackPolicy> {
    const values = policyValues(policy, now);
    const rows = await this.db
      .insert(playbackPoliciesTable)
      .values({ streamId, tenantId, version: 1, ...values })
      .onConflictDoUpdate({
        target: playbackPoliciesTable.streamId,
        set: { ...values, version: sql`${playbackPoliciesTable.version} + 1` },
      })
      .returning();
    return toPolicy(rows[0]);
  }

  /** The stream and policy behind a playback ID, or undefined when no stream has it. */
  async byPlaybackId(playbackId: string): Promise<ResolvedPolicy | undefined> {
    const rows = await this.db
      .select({ streamId: streamsTable.id, tenantId: streamsTable.tenantId, policy: playbackPoliciesTable })
      .from(streamsTable)
      .leftJoin(playbackPoliciesTable, eq(playbackPoliciesTable.streamId, streamsTable.id))
      .where(eq(streamsTable.playbackId, playbackId))
      .limit(1);
    const row = rows[0] ?? (await this.storedContentPolicy(playbackId));
    return row
      ? { streamId: row.streamId, tenantId: row.tenantId, playbackId, policy: toPolicy(row.policy) }
      : undefined;
  }

  /** Recordings, chapters and clips play under the policy of their stream. */
  private async storedContentPolicy(playbackId: string) {
    const owner = this.db
      .select({ streamId: recordingsTable.streamId })
      .from(recordingsTable)
      .where(eq(recordingsTable.playbackId, playbackId))
      .union(
        this.db
          .select({ streamId: mediaArtifactsTable.streamId })
          .from(mediaArtifactsTable)
          .where(eq(mediaArtifactsTable.playbackId, playbackId)),
      );
    const owners = await owner;
    const streamId = owners[0]?.streamId;
    if (!streamId) {
      return undefined;
    }
    const rows = await this.db
      .select({ streamId: streamsTable.id, tenantId: streamsTable.tenantId, policy: playbackPoliciesTable })
      .from(streamsTable)
      .leftJoin(playbackPoliciesTable, eq(playbackPoliciesTable.streamId, streamsTable.id))
      .where(eq(streamsTable.id, streamId))
      .limit(1);
    return rows[0];
  }
}
