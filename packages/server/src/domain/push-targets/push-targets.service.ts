/**
 * Push-target rules (spec §2, §4 rule 7; frameworks.md §1.3): targets belong to one stream of the
 * tenant; the URI is checked (scheme, shape, outbound address), sealed at rest and read back
 * masked. The node that pushes reads the URIs in the clear through `secretsForStream`.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import { checkOutboundHost, type HostResolver } from '../outbound-url.js';
import type { SealedText } from '../sealed-text.js';
import { NAME_MAX_LENGTH, requiredText } from '../streams/stream-input.js';
import { streamIdOf } from '../streams/streams.service.js';
import type { StreamsStore } from '../streams/streams.store.js';
import {
  PRIVATE_PUSH_SETTING,
  PUSH_PLATFORMS,
  type PushCountersReport,
  type PushStateReport,
  type PushTargetRecord,
  type PushTargetSecret,
} from './push-target.js';
import type { PushTargetsStore } from './push-targets.store.js';
import { StreamBatches } from './stream-batches.js';
import { maskTargetUri, parseTargetUri } from './target-uri.js';

/** Most targets one stream may have. */
export const MAX_PUSH_TARGETS_PER_STREAM = 100;

/** What the push-targets service needs. */
export interface PushTargetsServiceDeps {
  readonly store: PushTargetsStore;
  readonly streams: StreamsStore;
  readonly sealer: SealedText;
  /** AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS. */
  readonly allowPrivate: boolean;
  readonly resolveHost?: HostResolver;
  /** A tenant's stream's targets changed (the pushing node re-reads them). */
  readonly onChanged?: (tenantId: string, streamId: string) => void;
}

/** Input of createPushTarget. */
export interface CreatePushTargetInput {
  readonly platform?: string | null;
  readonly name?: string | null;
  readonly targetUri?: string | null;
}

/** Input of updatePushTarget. */
export interface UpdatePushTargetInput {
  readonly name?: string | null;
  readonly targetUri?: string | null;
  readonly isEnabled?: boolean | null;
}

/** The live counters of a target pushed on this node (fresher than the last report). */
export type LivePushState = (targetId: string) => PushStateReport | undefined;

function targetIdOf(id: string): string {
  const raw = fromGlobalId('PushTarget', id);
  if (!isUuid(raw)) {
    throw new NotFoundError('PushTarget', id);
  }
  return raw;
}

/** Push targets of a tenant's streams. */
export class PushTargetsService {
  private live: LivePushState | undefined;
  private readonly batches: StreamBatches<PushTargetRecord>;

  constructor(private readonly deps: PushTargetsServiceDeps) {
    this.batches = new StreamBatches((tenantId, streamIds) => deps.store.listForStreams(tenantId, streamIds));
  }

  /** Lets reads show this node's live counters of targets it pushes. */
  showLive(live: LivePushState): void {
    this.live = live;
  }

  /** Adds a target to the tenant's stream (enabled, idle). */
  async create(tenantId: string, streamId: string, input: CreatePushTargetInput): Promise<PushTargetRecord> {
    const stream = streamIdOf(streamId, 'streamId');
    const platform = platformOf(input.platform);
    const name = requiredText(input.name, 'input.name', NAME_MAX_LENGTH);
    if (!(await this.deps.streams.find(tenantId, stream))) {
      throw new NotFoundError('Stream', streamId);
    }
    const uri = await this.checkedUri(input.targetUri);
    if ((await this.deps.store.countForStream(tenantId, stream)) >= MAX_PUSH_TARGETS_PER_STREAM) {
      throw new ValidationError(
        'streamId',
        'limit',
        `a stream may have at most ${MAX_PUSH_TARGETS_PER_STREAM} push targets`,
      );
    }
    const id = randomUUID();
    const created = await this.deps.store.insert({
      id,
      tenantId,
      streamId: stream,
      platform,
      name,
      targetUriSealed: this.deps.sealer.seal(uri, id),
      targetUriMasked: maskTargetUri(uri),
      createdAt: new Date(),
    });
    this.deps.onChanged?.(tenantId, stream);
    return created;
  }

  /** Changes name, URI or enabled state of the tenant's target. */
  async update(tenantId: string, id: string, input: UpdatePushTargetInput): Promise<PushTargetRecord> {
    const raw = targetIdOf(id);
    const name = input.name == null ? undefined : requiredText(input.name, 'input.name', NAME_MAX_LENGTH);
    if (!(await this.deps.store.find(tenantId, raw))) {
      throw new NotFoundError('PushTarget', id);
    }
    const uri = input.targetUri == null ? undefined : await this.checkedUri(input.targetUri);
    const updated = await this.deps.store.update(tenantId, raw, {
      ...(name === undefined ? {} : { name }),
      ...(uri === undefined
        ? {}
        : { targetUriSealed: this.deps.sealer.seal(uri, raw), targetUriMasked: maskTargetUri(uri) }),
      ...(input.isEnabled == null ? {} : { isEnabled: input.isEnabled }),
      updatedAt: new Date(),
    });
    if (!updated) {
      throw new NotFoundError('PushTarget', id);
    }
    this.deps.onChanged?.(tenantId, updated.streamId);
    return this.withLive(updated);
  }

  /** Deletes the tenant's target (a push of it stops); answers its UUID. */
  async delete(tenantId: string, id: string): Promise<string> {
    const raw = targetIdOf(id);
    const streamId = await this.deps.store.delete(tenantId, raw);
    if (!streamId) {
      throw new NotFoundError('PushTarget', id);
    }
    this.deps.onChanged?.(tenantId, streamId);
    return raw;
  }

  /**
   * Targets of a stream the caller already resolved in its tenant, oldest first. Lookups asked
   * in the same turn of the event loop (the streams of one connection page) share one query.
   */
  async listForStream(tenantId: string, streamId: string): Promise<PushTargetRecord[]> {
    return (await this.batches.load(tenantId, streamId)).map((target) => this.withLive(target));
  }

  /** The enabled targets of a stream with their URIs in the clear (for the node that pushes). */
  async secretsForStream(streamId: string): Promise<PushTargetSecret[]> {
    const sealed = await this.deps.store.enabledForStream(streamId);
    return sealed.map((target) => ({
      id: target.id,
      streamId: target.streamId,
      targetUri: this.deps.sealer.open(target.targetUriSealed, target.id),
    }));
  }

  /** Records the state of a target `nodeId` pushes (nothing when the target is gone). */
  report(id: string, nodeId: string, state: PushStateReport): Promise<void> {
    return this.deps.store.report(id, nodeId, state, new Date());
  }

  /** Records the counters of many targets `nodeId` pushes, in one write. */
  reportCounters(nodeId: string, reports: readonly PushCountersReport[]): Promise<void> {
    return this.deps.store.reportCounters(nodeId, reports, new Date());
  }

  /** Sets the targets a previous run of `nodeId` left non-idle back to idle. */
  resetNode(nodeId: string): Promise<void> {
    return this.deps.store.resetNode(nodeId, new Date());
  }

  private withLive(target: PushTargetRecord): PushTargetRecord {
    const live = this.live?.(target.id);
    return live ? { ...target, ...live } : target;
  }

  private async checkedUri(value: string | null | undefined): Promise<string> {
    const field = 'input.targetUri';
    if (value == null || value === '') {
      throw new ValidationError(field, 'required', `${field} is required`);
    }
    const address = parseTargetUri(value, field);
    await checkOutboundHost(address.host, {
      field,
      allowPrivate: this.deps.allowPrivate,
      optInSetting: PRIVATE_PUSH_SETTING,
      ...(this.deps.resolveHost ? { resolve: this.deps.resolveHost } : {}),
    });
    return value;
  }
}

function platformOf(value: string | null | undefined): string {
  const platform = value ?? 'custom';
  if (!(PUSH_PLATFORMS as readonly string[]).includes(platform)) {
    throw new ValidationError('input.platform', 'enum', `input.platform must be one of ${PUSH_PLATFORMS.join(', ')}`);
  }
  return platform;
}
