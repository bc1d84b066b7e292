/**
 * Stream rules: creation with a primary key and playback ID, validated updates (ingest mode is
 * immutable), deletion (which also ends a live publish), tenant-scoped reads and key rotation.
 * Another tenant's ID answers NOT_FOUND, like an unknown one.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import type { HostResolver } from '../outbound-url.js';
import { type Connection, type PageInput, toConnection, toPageRequest } from '../pagination.js';
import { cursorOf } from './keyset.js';
import { validatePullSource } from './pull-source.js';
import { newPlaybackId, newStreamKey } from './random-ids.js';
import type { CreateStreamInput, StreamRecord, UpdateStreamInput } from './stream.js';
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  optionalText,
  requiredText,
  SOURCE_LOCATION_MAX_LENGTH,
} from './stream-input.js';
import type { StreamKeysStore } from './stream-keys.store.js';
import type { StreamPatch, StreamsStore } from './streams.store.js';

/** Most streams one tenant may have. */
export const MAX_STREAMS_PER_TENANT = 1000;
/** Longest search string of streamsConnection. */
export const SEARCH_MAX_LENGTH = 255;

/** What the streams service needs. */
export interface StreamsServiceDeps {
  readonly streams: StreamsStore;
  readonly keys: StreamKeysStore;
  /** Node setting: accept pull sources in private/multicast ranges. */
  readonly allowPrivatePullSources: boolean;
  readonly resolveHost?: HostResolver;
  /** Called after a stream is deleted, to end a live publish of it. */
  readonly onDeleted?: (streamId: string, reason: string) => void;
  /** Called after a PULL stream was created or its pull source changed (the puller follows). */
  readonly onPullChanged?: (streamId: string) => void;
}

/** Decodes a Stream ID (global or raw UUID) or throws NOT_FOUND for anything that cannot exist. */
export function streamIdOf(id: string, field = 'id'): string {
  const raw = fromGlobalId('Stream', id, field);
  if (!isUuid(raw)) {
    throw new NotFoundError('Stream', id);
  }
  return raw;
}

/** The error for a pull source given to a stream that does not pull. */
function pullSourceOnPush(): ValidationError {
  return new ValidationError(
    'input.pullSource',
    'push_mode',
    'input.pullSource is only accepted when ingestMode is PULL',
  );
}

/** Streams of a tenant. */
export class StreamsService {
  constructor(private readonly deps: StreamsServiceDeps) {}

  /** Creates a stream with a primary key; PULL streams need a valid pull source. */
  async create(tenantId: string, input: CreateStreamInput): Promise<StreamRecord> {
    const name = requiredText(input.name, 'input.name', NAME_MAX_LENGTH);
    const description = optionalText(input.description, 'input.description', DESCRIPTION_MAX_LENGTH);
    const sourceLocation = optionalText(input.sourceLocation, 'input.sourceLocation', SOURCE_LOCATION_MAX_LENGTH);
    const ingestMode = input.ingestMode ?? 'PUSH';
    let pull: { uri: string; class: 'public' | 'private' } | undefined;
    if (ingestMode === 'PULL') {
      pull = await this.pullSource(input.pullSource?.sourceUri);
    } else if (input.pullSource) {
      throw pullSourceOnPush();
    }
    if ((await this.deps.streams.countForTenant(tenantId)) >= MAX_STREAMS_PER_TENANT) {
      throw new ValidationError('input', 'limit', `a tenant may have at most ${MAX_STREAMS_PER_TENANT} streams`);
    }
    const id = randomUUID();
    await this.deps.streams.insert({
      id,
      tenantId,
      name,
      description,
      playbackId: newPlaybackId(),
      record: input.record ?? false,
      ingestMode,
      pullSourceUri: pull?.uri ?? null,
      pullSourceEnabled: input.pullSource?.enabled ?? true,
      pullSourceClass: pull?.class ?? null,
      pullSourceOnDemand: input.pullSource?.onDemand ?? false,
      sourceLocation,
      createdAt: new Date(),
      primaryKey: { id: randomUUID(), value: newStreamKey() },
    });
    if (pull) {
      this.deps.onPullChanged?.(id);
    }
    return this.get(tenantId, id);
  }

  /** The tenant's stream by global or raw ID; NOT_FOUND otherwise. */
  async get(tenantId: string, id: string): Promise<StreamRecord> {
    const stream = await this.deps.streams.find(tenantId, streamIdOf(id));
    if (!stream) {
      throw new NotFoundError('Stream', id);
    }
    return stream;
  }

  /** A page of the tenant's streams, newest first, optionally filtered by name. */
  async list(
    tenantId: string,
    page: PageInput | null | undefined,
    search?: string | null,
  ): Promise<Connection<StreamRecord>> {
    const request = toPageRequest(page);
    const term = optionalText(search, 'search', SEARCH_MAX_LENGTH) ?? undefined;
    const { rows, totalCount } = await this.deps.streams.page(tenantId, request, term);
    return toConnection(rows, request, totalCount, cursorOf);
  }

  /** Updates the given fields; changing ingestMode is a VALIDATION_ERROR. */
  async update(tenantId: string, id: string, input: UpdateStreamInput): Promise<StreamRecord> {
    const current = await this.get(tenantId, id);
    if (input.ingestMode != null && input.ingestMode !== current.ingestMode) {
      throw new ValidationError(
        'input.ingestMode',
        'immutable',
        'input.ingestMode cannot change after creation; create a new stream instead',
      );
    }
    const patch: { -readonly [K in keyof StreamPatch]: StreamPatch[K] } = {};
    if (input.name != null) {
      patch.name = requiredText(input.name, 'input.name', NAME_MAX_LENGTH);
    }
    if (input.description !== undefined) {
      patch.description = optionalText(input.description, 'input.description', DESCRIPTION_MAX_LENGTH);
    }
    if (input.record != null) {
      patch.record = input.record;
    }
    if (input.sourceLocation !== undefined) {
      patch.sourceLocation = optionalText(input.sourceLocation, 'input.sourceLocation', SOURCE_LOCATION_MAX_LENGTH);
    }
    if (input.pullSource) {
      if (current.ingestMode !== 'PULL') {
        throw pullSourceOnPush();
      }
      if (input.pullSource.sourceUri != null) {
        const pull = await this.pullSource(input.pullSource.sourceUri);
        patch.pullSourceUri = pull.uri;
        patch.pullSourceClass = pull.class;
      }
      if (input.pullSource.enabled != null) {
        patch.pullSourceEnabled = input.pullSource.enabled;
      }
      if (input.pullSource.onDemand != null) {
        patch.pullSourceOnDemand = input.pullSource.onDemand;
      }
    }
    if (Object.keys(patch).length > 0) {
      await this.deps.streams.update(tenantId, current.id, patch, new Date());
      if (input.pullSource) {
        this.deps.onPullChanged?.(current.id);
      }
    }
    return this.get(tenantId, current.id);
  }

  /** Deletes the stream and its keys and ends a live publish; returns the deleted stream's UUID. */
  async delete(tenantId: string, id: string): Promise<string> {
    const raw = streamIdOf(id);
    if (!(await this.deps.streams.delete(tenantId, raw))) {
      throw new NotFoundError('Stream', id);
    }
    this.deps.onDeleted?.(raw, 'stream deleted');
    return raw;
  }

  /** Rotates the primary key: the old value stops authorizing ingest at once. */
  async refreshKey(tenantId: string, id: string): Promise<StreamRecord> {
    const raw = streamIdOf(id);
    const rotated = await this.deps.keys.rotatePrimary(
      tenantId,
      raw,
      { id: randomUUID(), value: newStreamKey() },
      new Date(),
    );
    if (!rotated) {
      throw new NotFoundError('Stream', id);
    }
    return this.get(tenantId, raw);
  }

  private async pullSource(uri: string | null | undefined): Promise<{ uri: string; class: 'public' | 'private' }> {
    if (uri == null || uri.trim() === '') {
      throw new ValidationError(
        'input.pullSource.sourceUri',
        'required',
        'input.pullSource.sourceUri is required when ingestMode is PULL',
      );
    }
    return validatePullSource(uri, {
      allowPrivate: this.deps.allowPrivatePullSources,
      ...(this.deps.resolveHost ? { resolve: this.deps.resolveHost } : {}),
    });
  }
}
