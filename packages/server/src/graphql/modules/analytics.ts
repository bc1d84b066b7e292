/**
 * Analytics (spec §4, rules 2–3): `analytics { usage { streaming { streamAnalyticsDailyConnection
 * (streamId, timeRange, page) } } }` — the daily roll-up of a stream's playback sessions, for
 * callers with `analytics:read`. The intermediate objects only group fields.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** The parent of a field group (`usage.streaming`, …): nothing, the fields take their own arguments. */
export type AnalyticsGroup = Record<string, never>;

/** The analytics schema module. */
export const analyticsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "A time range of ISO 8601 UTC timestamps; analytics count the UTC days from start's to end's (at most 366)."
    input TimeRangeInput {
      start: Time!
      end: Time!
    }

    "Playback of one stream on one UTC day, over every node and protocol."
    type StreamAnalyticsDaily {
      id: ID!
      "The UTC day, YYYY-MM-DD."
      day: String!
      "Global ID of the stream."
      streamId: ID!
      "Playback sessions started that day."
      totalViews: Int!
      "Distinct viewers that day (a salted hash of IP and user agent; the salt changes every UTC day)."
      uniqueViewers: Int!
      "Media bytes sent to viewers that day."
      egressBytes: Float!
      "Seconds watched, summed over sessions."
      viewerSeconds: Float!
      "Most viewers at once (per-minute peaks summed over nodes)."
      peakConcurrentViewers: Int!
    }

    type StreamAnalyticsDailyEdge {
      cursor: String!
      node: StreamAnalyticsDaily!
    }

    type StreamAnalyticsDailyConnection {
      edges: [StreamAnalyticsDailyEdge!]!
      nodes: [StreamAnalyticsDaily!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    "Streaming usage analytics."
    type StreamingUsage {
      "Days of a stream with viewers in timeRange, oldest first. streamId is the Stream global ID; timeRange is required and spans at most a year."
      streamAnalyticsDailyConnection(
        streamId: ID!
        timeRange: TimeRangeInput!
        page: ConnectionInput
      ): StreamAnalyticsDailyConnection!
    }

    "Usage analytics by area."
    type AnalyticsUsage {
      streaming: StreamingUsage!
    }

    "Analytics of the caller's tenant (analytics:read)."
    type Analytics {
      usage: AnalyticsUsage!
    }

    extend type Query {
      "Analytics of the caller's tenant; needs analytics:read."
      analytics: Analytics!
    }
  `,
  resolvers: {
    Query: {
      analytics: (_root, _args, ctx) => {
        requirePrincipal(ctx.principal, 'analytics:read');
        return { usage: { streaming: {} as AnalyticsGroup } };
      },
    },
    StreamingUsage: {
      streamAnalyticsDailyConnection: async (_root, { streamId, timeRange, page }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'analytics:read');
        const connection = await ctx.services.streamAnalytics.daily(principal.tenantId, streamId, timeRange, page);
        const toNode = (row: (typeof connection.nodes)[number]) => ({
          id: row.id,
          day: row.day,
          streamId: toGlobalId('Stream', row.streamId),
          totalViews: row.totalViews,
          uniqueViewers: row.uniqueViewers,
          egressBytes: row.egressBytes,
          viewerSeconds: row.viewerSeconds,
          peakConcurrentViewers: row.peakConcurrent,
        });
        return {
          ...connection,
          edges: connection.edges.map((edge) => ({ cursor: edge.cursor, node: toNode(edge.node) })),
          nodes: connection.nodes.map(toNode),
        };
      },
    },
  } satisfies Resolvers,
};
