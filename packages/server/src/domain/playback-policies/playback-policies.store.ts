/**
 * SQL of playback policies: upsert for a tenant's stream (bumping the version), read by stream,
 * and the policy of a playback ID joined from `streams`.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { mediaArtifactsTable, recordingsTable } from '../recordings/recording-tables.js';
import { tenantStream } from '../streams/stream-rows.js';
import { streamsTable } from '../streams/stream-tables.js';
import { contentPlaybackPoliciesTable, playbackPoliciesTable } from './playback-policies.tables.js';
import { type PlaybackPolicy, type PlaybackPolicyType, PUBLIC_POLICY, type ResolvedPolicy } from './playback-policy.js';

type PolicyRow = Pick<
  typeof playbackPoliciesTable.$inferSelect,
  'policyType' | 'allowedKids' | 'webhookUrl' | 'webhookSecret' | 'webhookTimeoutMs' | 'version'
>;

/** A clip or VOD asset whose own policy is set (setPlaybackPolicy with clipId or vodAssetId). */
export interface ContentPolicyTarget {
  readonly kind: 'CLIP' | 'VOD';
  /** The clip's or asset's UUID. */
  readonly contentId: string;
  readonly playbackId: string;
  readonly tenantId: string;
  /** The stream it came from; null for uploads. */
  readonly streamId: string | null;
}

function policyValues(policy: Omit<PlaybackPolicy, 'version'>, now: Date) {
  return {
    policyType: policy.type,
    allowedKids: [...policy.allowedKids],
    webhookUrl: policy.webhook?.url ?? null,
    webhookSecret: policy.webhook?.secret ?? null,
    webhookTimeoutMs: policy.webhook?.timeoutMs ?? null,
    updatedAt: now,
  };
}

function toPolicy(row: PolicyRow | null | undefined): PlaybackPolicy {
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

  /** The own policy of a clip or VOD asset (by its playback ID), or undefined when it has none. */
  async forContent(tenantId: string, playbackId: string): Promise<PlaybackPolicy | undefined> {
    const rows = await this.db
      .select()
      .from(contentPlaybackPoliciesTable)
      .where(
        and(
          eq(contentPlaybackPoliciesTable.playbackId, playbackId),
          eq(contentPlaybackPoliciesTable.tenantId, tenantId),
        ),
      )
      .limit(1);
    return rows[0] ? toPolicy(rows[0]) : undefined;
  }

  /** Writes the own policy of a clip or VOD asset; returns it with its new version. */
  async upsertContent(
    target: ContentPolicyTarget,
    policy: Omit<PlaybackPolicy, 'version'>,
    now: Date,
  ): Promise<PlaybackPolicy> {
    const values = policyValues(policy, now);
    const rows = await this.db
      .insert(contentPlaybackPoliciesTable)
      .values({
        playbackId: target.playbackId,
        tenantId: target.tenantId,
        contentKind: target.kind,
        contentId: target.contentId,
        streamId: target.streamId,
        version: 1,
        ...values,
      })
      .onConflictDoUpdate({
        target: contentPlaybackPoliciesTable.playbackId,
        set: { ...values, version: sql`${contentPlaybackPoliciesTable.version} + 1` },
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
    const row = rows[0] ?? (await this.contentOwnPolicy(playbackId)) ?? (await this.storedContentPolicy(playbackId));
    return row
      ? { streamId: row.streamId, tenantId: row.tenantId, playbackId, policy: toPolicy(row.policy) }
      : undefined;
  }

  /** A clip's or VOD asset's own policy (a VOD asset without a stream names itself as the stream). */
  private async contentOwnPolicy(playbackId: string) {
    const rows = await this.db
      .select()
      .from(contentPlaybackPoliciesTable)
      .where(eq(contentPlaybackPoliciesTable.playbackId, playbackId))
      .limit(1);
    const row = rows[0];
    return row ? { streamId: row.streamId ?? row.contentId, tenantId: row.tenantId, policy: row } : undefined;
  }

  /** Recordings, chapters and clips without a policy of their own play under the policy of their stream. */
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
