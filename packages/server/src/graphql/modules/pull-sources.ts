/**
 * Pull sources on the Stream: the pull's state in `metrics.pull` and the recent connection
 * attempts in `recentPullSourceEvents` (frameworks.md §1.1). Reading them needs `streams:read`,
 * like the stream itself.
 */
import type { PullSourceEventRecord, PullStatusRecord } from '../../domain/pull-sources/pull-source.js';
import type { StreamRecord } from '../../domain/streams/stream.js';
import type { PullSourceEvent, PullStatus, Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** The GraphQL value of a pull state. */
export function pullStatusToGraphQL(pull: PullStatusRecord | null): PullStatus | null {
  return pull
    ? {
        state: pull.phase,
        nodeId: pull.nodeId,
        attempt: pull.attempt,
        failures: pull.failures,
        nextAttemptAt: pull.nextAttemptAt?.toISOString() ?? null,
        lastError: pull.lastError,
        updatedAt: pull.updatedAt.toISOString(),
      }
    : null;
}

function eventToGraphQL(event: PullSourceEventRecord): PullSourceEvent {
  return {
    id: String(event.id),
    eventKind: event.eventKind,
    attempt: event.attempt,
    message: event.message,
    address: event.address,
    nodeId: event.nodeId,
    createdAt: event.createdAt.toISOString(),
  };
}

/** The pull-sources schema module. */
export const pullSourcesModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "Phase of a pull: connecting to the source, pulling media, waiting to retry, or stopped."
    enum PullState {
      CONNECTING
      PULLING
      RETRYING
      STOPPED
    }

    "The pull of a PULL stream as the node pulling it reports it."
    type PullStatus {
      state: PullState!
      "The node pulling (holding the pull's lease)."
      nodeId: String!
      "Attempts since the pull started on that node."
      attempt: Int!
      "Consecutive failed attempts (the backoff grows with them)."
      failures: Int!
      "When the next attempt starts (RETRYING)."
      nextAttemptAt: Time
      "What ended the last attempt (credentials redacted)."
      lastError: String
      updatedAt: Time!
    }

    "One connection attempt's outcome."
    type PullSourceEvent {
      id: ID!
      "connected, failed, stalled, source_ended, not_found, private_not_allowed, blocked_uri, redirected or disabled."
      eventKind: String!
      attempt: Int!
      message: String!
      "The address dialled, when the attempt got that far."
      address: String
      nodeId: String!
      createdAt: Time!
    }

    extend type StreamMetrics {
      "The pull's state (PULL streams); null before any node pulled it."
      pull: PullStatus
    }

    extend type Stream {
      "Newest connection attempts of the pull source first (empty for PUSH streams); limit 0..100."
      recentPullSourceEvents(limit: Int = 50): [PullSourceEvent!]!
    }
  `,
  resolvers: {
    Stream: {
      recentPullSourceEvents: async (stream: StreamRecord, { limit }, ctx) =>
        stream.ingestMode === 'PULL'
          ? (await ctx.services.pullSources.recentEvents(stream.tenantId, stream.id, limit)).map(eventToGraphQL)
          : [],
    },
  } satisfies Resolvers,
};
