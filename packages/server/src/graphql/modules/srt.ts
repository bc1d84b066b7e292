/**
 * SRT ingest of streams: the stream's own passphrase (write-only), whether one is set, and the
 * statistics of the stream's current or last SRT connection. Needs `streams:write` to set and
 * `streams:read` to read (developer tokens).
 */
import { requirePrincipal } from '../../auth/principal.js';
import type { IngestConnectionRow } from '../../domain/srt/srt.js';
import type { StreamRecord } from '../../domain/streams/stream.js';
import type { IngestConnection, Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';

const number = (stats: Record<string, unknown>, name: string): number => {
  const value = stats[name];
  return typeof value === 'number' ? value : 0;
};

/** The GraphQL view of a stored connection report. */
export function ingestConnectionToGraphQL(row: IngestConnectionRow): IngestConnection {
  const stats = row.stats;
  return {
    sessionId: row.sessionId,
    protocol: row.protocol,
    nodeId: row.nodeId,
    connected: row.connected,
    remote: typeof stats.remote === 'string' ? stats.remote : '',
    connectedAt: typeof stats.connectedAt === 'string' ? stats.connectedAt : row.updatedAt.toISOString(),
    packetsReceived: number(stats, 'packetsReceived'),
    packetsLost: number(stats, 'packetsLost'),
    packetsRetransmitted: number(stats, 'packetsRetransmitted'),
    packetsDropped: number(stats, 'packetsDropped'),
    bytesReceived: number(stats, 'bytesReceived'),
    rttMs: number(stats, 'rttMs'),
    bitrateBps: number(stats, 'bitrateBps'),
    receiveBufferPackets: number(stats, 'receiveBufferPackets'),
    latencyMs: number(stats, 'latencyMs'),
    encrypted: stats.encrypted === true,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The SRT schema module. */
export const srtModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "A stream's SRT settings after a change."
    type StreamSrtSettings {
      "Stream UUID."
      streamId: ID!
      "True when SRT publishers must use the stream's own passphrase (write-only: never shown)."
      passphraseSet: Boolean!
    }

    "Statistics of an ingest connection (SRT) as its node last reported them (every 5 s and at the end)."
    type IngestConnection {
      sessionId: String!
      "srt."
      protocol: String!
      nodeId: String!
      "False once the connection ended (the numbers are its totals)."
      connected: Boolean!
      "The publisher's address and port."
      remote: String!
      connectedAt: Time!
      packetsReceived: Float!
      "Packets found missing before retransmission."
      packetsLost: Float!
      "Packets that arrived retransmitted."
      packetsRetransmitted: Float!
      "Packets given up at their delivery time (too late)."
      packetsDropped: Float!
      bytesReceived: Float!
      "Smoothed round-trip time (ACK to ACKACK)."
      rttMs: Float!
      "Receive rate over the last second, bits per second."
      bitrateBps: Float!
      "Packets waiting in the receive buffer."
      receiveBufferPackets: Int!
      "Negotiated TSBPD latency."
      latencyMs: Int!
      encrypted: Boolean!
      updatedAt: Time!
    }

    union SetStreamSrtPassphraseResult = StreamSrtSettings | ValidationError | NotFoundError | AuthError

    extend type Mutation {
      "Sets the stream's own SRT passphrase (10 to 79 printable ASCII characters; overrides the node's), or clears it with null. Write-only. SRT publishers must then encrypt with it (AES-128/192/256); a wrong one is refused."
      setStreamSrtPassphrase(streamId: ID!, passphrase: String): SetStreamSrtPassphraseResult!
    }

    extend type Stream {
      "Whether SRT publishers need the stream's own passphrase."
      srtPassphraseSet: Boolean!
      "The current or last SRT connection of the stream; null before any."
      ingestConnection: IngestConnection
    }

    extend type ConnectionEvent {
      "SRT ingest connections (connector srt): the publisher's connection statistics; null for viewers."
      ingest: JSON
    }
  `,
  resolvers: {
    Mutation: {
      setStreamSrtPassphrase: (_root, { streamId, passphrase }, ctx) =>
        unionResult('StreamSrtSettings', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.srt.setPassphrase(principal.tenantId, streamId, passphrase);
        }),
    },
    Stream: {
      srtPassphraseSet: (stream: StreamRecord, _args, ctx) =>
        ctx.services.srt.hasPassphrase(stream.tenantId, stream.id),
      ingestConnection: async (stream: StreamRecord, _args, ctx) => {
        const row = await ctx.services.srt.connection(stream.id);
        return row ? ingestConnectionToGraphQL(row) : null;
      },
    },
  } satisfies Resolvers,
};
