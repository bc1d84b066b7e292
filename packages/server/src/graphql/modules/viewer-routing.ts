/**
 * resolveViewerEndpoint (spec §2, §4; public): the node a viewer should play a playback id from,
 * up to four fallbacks (rule 6: try the primary first), and what is being played.
 */
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** Header carrying the viewer's playback token for gated content. */
export const PLAYBACK_TOKEN_HEADER = 'x-airwave-playback-jwt';

/** The viewer routing schema module. */
export const viewerRoutingModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "One node to play from."
    type ViewerEndpoint {
      nodeId: String!
      baseUrl: String!
      "hls: url is the LL-HLS playlist (CMAF), played by hls.js and Apple players."
      protocol: String!
      url: String!
      "Great-circle km between the viewer and the node; null when either position is unknown."
      geoDistance: Float
      "The node's load, 0 (idle) to 1 (saturated): CPU and egress against its capacity."
      loadScore: Float!
      "Every output of the node: {HLS|HLS_CMAF|DASH|MP4|WHEP: {protocol, url, capabilities {supportsSeek supportsQualitySwitch hasAudio hasVideo}}}; URLs carry the playback token of gated content."
      outputs: JSON!
    }

    "One track of the content."
    type PlaybackTrack {
      "video or audio."
      type: String!
      codec: String!
      bitrateKbps: Int
      width: Int
      height: Int
      channels: Int
      sampleRate: Int
    }

    "What is being played."
    type PlaybackMetadata {
      "The content's status (a live stream: OFFLINE, LIVE, RECONNECTING)."
      status: String!
      isLive: Boolean!
      "Viewers over every node."
      viewers: Int!
      title: String
      description: String
      contentId: String!
      "live, vod, dvr (a recording) or clip (a chapter or clip)."
      contentType: String!
      tracks: [PlaybackTrack!]!
    }

    type ViewerEndpointResponse {
      "The best healthy node by distance and load; null when no node is healthy."
      primary: ViewerEndpoint
      "The next best nodes (at most four), to try in order when the primary fails."
      fallbacks: [ViewerEndpoint!]!
      metadata: PlaybackMetadata!
    }

    extend type Query {
      "Public. Where to play contentId (a playback id), for the caller's IP (from a trusted proxy's X-Forwarded-For or Forwarded, else the connection); gated content needs its playback token in X-Airwave-Playback-JWT. VALIDATION_ERROR (field viewerIp) when the IP cannot be determined."
      resolveViewerEndpoint(contentId: String!): ViewerEndpointResponse!
    }
  `,
  resolvers: {
    Query: {
      resolveViewerEndpoint: (_root, { contentId }, ctx) => {
        const headers = ctx.request.headers;
        const token = headers[PLAYBACK_TOKEN_HEADER];
        return ctx.services.viewerRouting.resolve(
          contentId,
          {
            peer: ctx.request.socket.remoteAddress,
            forwarded: headers.forwarded,
            xForwardedFor: headers['x-forwarded-for'],
          },
          typeof token === 'string' && token.length > 0 ? token : undefined,
        );
      },
    },
    StreamMetrics: {
      // The ingesting node reports its own viewers; edges relaying the stream count theirs in
      // their heartbeats: a live stream's viewers are the larger of the two views.
      currentViewers: async (metrics, _args, ctx) => {
        const own = Number(metrics.currentViewers ?? 0);
        return metrics.isLive === true
          ? Math.max(own, await ctx.services.viewerRouting.viewersOnEveryNode(metrics.streamId))
          : own;
      },
    },
  } satisfies Resolvers,
};
