/**
 * Stream key rules: several active keys per stream (up to a limit), named; the primary key is
 * rotated with refreshStreamKey and cannot be deleted. Any active key authorizes ingest.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import { type Connection, type PageInput, toConnection, toPageRequest } from '../pagination.js';
import { cursorOf } from './keyset.js';
import { newStreamKey } from './random-ids.js';
import type { IngestMode, StreamKeyRecord } from './stream.js';
import { KEY_NAME_MAX_LENGTH, requiredText } from './stream-input.js';
import type { KeyGrant, StreamKeysStore } from './stream-keys.store.js';
import { streamIdOf } from './streams.service.js';
import type { StreamsStore } from './streams.store.js';

/** Most active keys one stream may have (the primary included). */
export const MAX_ACTIVE_KEYS_PER_STREAM = 20;
/** Longest value accepted as a stream key at ingest (longer input is refused unread). */
export const STREAM_KEY_MAX_LENGTH = 128;

/** What the stream keys service needs. */
export interface StreamKeysServiceDeps {
  readonly streams: StreamsStore;
  readonly keys: StreamKeysStore;
}

function keyIdOf(id: string): string {
  const raw = fromGlobalId('StreamKey', id, 'keyId');
  if (!isUuid(raw)) {
    throw new NotFoundError('StreamKey', id);
  }
  return raw;
}

/** Stream keys of a tenant's streams, and the ingest-side lookup. */
export class StreamKeysService {
  constructor(private readonly deps: StreamKeysServiceDeps) {}

  /** Adds an active key named `name` to the tenant's stream. */
  async create(tenantId: string, streamId: string, input: { readonly name?: string | null }): Promise<StreamKeyRecord> {
    const stream = await this.stream(tenantId, streamId);
    const keyName = requiredText(input.name, 'input.name', KEY_NAME_MAX_LENGTH);
    if ((await this.deps.keys.countActive(tenantId, stream)) >= MAX_ACTIVE_KEYS_PER_STREAM) {
      throw new ValidationError(
        'streamId',
        'limit',
        `a stream may have at most ${MAX_ACTIVE_KEYS_PER_STREAM} active keys; delete one first`,
      );
    }
    return this.deps.keys.insert({
      id: randomUUID(),
      tenantId,
      streamId: stream,
      keyValue: newStreamKey(),
      keyName,
      createdAt: new Date(),
    });
  }

  /** A page of the stream's keys, newest first (rotated-out primaries listed inactive). */
  async list(
    tenantId: string,
    streamId: string,
    page: PageInput | null | undefined,
  ): Promise<Connection<StreamKeyRecord>> {
    const request = toPageRequest(page);
    const stream = await this.stream(tenantId, streamId);
    const { rows, totalCount } = await this.deps.keys.page(tenantId, stream, request);
    return toConnection(rows, request, totalCount, cursorOf);
  }

  /** Deletes a non-primary key (it stops authorizing at once); returns its UUID. */
  async delete(tenantId: string, streamId: string, keyId: string): Promise<string> {
    const stream = await this.stream(tenantId, streamId);
    const key = await this.deps.keys.find(tenantId, stream, keyIdOf(keyId));
    if (!key) {
      throw new NotFoundError('StreamKey', keyId);
    }
    if (key.isPrimary) {
      throw new ValidationError(
        'keyId',
        'primary',
        'the primary key cannot be deleted; rotate it with refreshStreamKey',
      );
    }
    if (!(await this.deps.keys.deleteNonPrimary(tenantId, stream, key.id))) {
      throw new NotFoundError('StreamKey', keyId);
    }
    return key.id;
  }

  /**
   * Resolves a key presented at ingest to its stream and stamps lastUsedAt; undefined when the
   * key is unknown, inactive, deleted or malformed, or its stream does not take `mode` (an
   * encoder cannot push to a PULL stream, the puller only pulls PULL streams).
   */
  async authorizeIngest(keyValue: string, mode: IngestMode = 'PUSH'): Promise<KeyGrant | undefined> {
    if (!isPlausibleKey(keyValue)) {
      return undefined;
    }
    return this.deps.keys.stampActiveKey(keyValue, mode, new Date());
  }

  /** Resolves a key without side effects, with the stream facts the ingest endpoint reports. */
  async lookup(keyValue: string): Promise<(KeyGrant & { record: boolean; name: string }) | undefined> {
    if (!isPlausibleKey(keyValue)) {
      return undefined;
    }
    return this.deps.keys.findActiveKey(keyValue);
  }

  private async stream(tenantId: string, streamId: string): Promise<string> {
    const raw = streamIdOf(streamId, 'streamId');
    if (!(await this.deps.streams.find(tenantId, raw))) {
      throw new NotFoundError('Stream', streamId);
    }
    return raw;
  }
}

function isPlausibleKey(value: string): boolean {
  return value.length > 0 && value.length <= STREAM_KEY_MAX_LENGTH && /^[\x21-\x7e]+$/.test(value);
}
