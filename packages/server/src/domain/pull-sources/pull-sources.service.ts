/**
 * Pull-source reads for the API: a stream's recent attempt events, within its tenant.
 */
import { ValidationError } from '../errors.js';
import type { PullSourceEventRecord } from './pull-source.js';
import { PULL_EVENTS_KEPT, type PullSourcesStore } from './pull-sources.store.js';

/** Default number of events `recentPullSourceEvents` answers. */
export const DEFAULT_PULL_EVENTS = 50;

/** Pull-source events of a tenant's streams. */
export class PullSourcesService {
  constructor(private readonly store: PullSourcesStore) {}

  /** The newest events of a stream the caller already resolved in its tenant, newest first. */
  async recentEvents(
    tenantId: string,
    streamId: string,
    limit: number | null | undefined,
  ): Promise<PullSourceEventRecord[]> {
    const count = limit ?? DEFAULT_PULL_EVENTS;
    if (!Number.isInteger(count) || count < 0 || count > PULL_EVENTS_KEPT) {
      throw new ValidationError('limit', 'range', `limit must be between 0 and ${PULL_EVENTS_KEPT}`);
    }
    return count === 0 ? [] : this.store.recentEvents(tenantId, streamId, count);
  }
}
