/**
 * SRT settings of a tenant's streams: the stream's own passphrase (write-only: set, replace or
 * clear; reads say only whether one is set), and the last reported SRT connection statistics.
 */
import { ValidationError } from '../errors.js';
import type { StreamsService } from '../streams/streams.service.js';
import type { IngestConnectionRow } from './srt.js';
import type { SrtStore } from './srt.store.js';

/** Shortest passphrase libsrt accepts. */
export const SRT_PASSPHRASE_MIN = 10;
/** Longest passphrase libsrt accepts. */
export const SRT_PASSPHRASE_MAX = 79;

/** What setPassphrase answers. */
export interface SrtSettings {
  readonly streamId: string;
  readonly passphraseSet: boolean;
}

/** SRT settings and statistics of streams. */
export class SrtService {
  constructor(
    private readonly store: SrtStore,
    private readonly streams: StreamsService,
  ) {}

  /**
   * Sets the stream's passphrase (10 to 79 printable ASCII characters: what libsrt accepts and
   * an encoder's URL can carry), or clears it with null. NOT_FOUND for another tenant's stream.
   */
  async setPassphrase(tenantId: string, streamId: string, passphrase: string | null | undefined): Promise<SrtSettings> {
    const stream = await this.streams.get(tenantId, streamId);
    const value = passphrase ?? null;
    if (value !== null) {
      if (value.length < SRT_PASSPHRASE_MIN || value.length > SRT_PASSPHRASE_MAX) {
        throw new ValidationError(
          'passphrase',
          'length',
          `an SRT passphrase has ${SRT_PASSPHRASE_MIN} to ${SRT_PASSPHRASE_MAX} characters`,
        );
      }
      if (!/^[\x20-\x7e]+$/.test(value)) {
        throw new ValidationError('passphrase', 'format', 'an SRT passphrase holds printable ASCII characters only');
      }
    }
    await this.store.setPassphrase(tenantId, stream.id, value, new Date());
    return { streamId: stream.id, passphraseSet: value !== null };
  }

  /** Whether the tenant's stream (already resolved) has its own passphrase. */
  hasPassphrase(tenantId: string, streamId: string): Promise<boolean> {
    return this.store.hasPassphrase(tenantId, streamId);
  }

  /** The last reported ingest connection of a stream (already resolved in its tenant). */
  connection(streamId: string): Promise<IngestConnectionRow | undefined> {
    return this.store.connectionOf(streamId);
  }
}
