/**
 * Public queries (spec §5.4; no token): resolveIngestEndpoint, serviceInstancesHealth and
 * networkStatus. They read only; no mutation is public.
 */
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** The public queries schema module. */
export const publicModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    enum IngestEndpointKind {
      INGEST_ENDPOINT_KIND_UNSPECIFIED
      INGEST_ENDPOINT_KIND_TENANT_ALIAS
      INGEST_ENDPOINT_KIND_ROOT_POOL
      INGEST_ENDPOINT_KIND_CLUSTER_POOL
      INGEST_ENDPOINT_KIND_NODE_SPECIFIC
    }

    "Where an encoder pushes: RTMP(S), SRT and WHIP URLs of one node, each carrying the stream key."
    type IngestEndpoint {
      nodeId: String!
      baseUrl: String!
      "rtmp://host:port/live/<streamKey>"
      rtmpUrl: String
      "rtmps://host:port/live/<streamKey> when RTMPS is configured."
      rtmpsUrl: String
      "srt://host:port?streamid=<streamKey> (SRT caller, MPEG-TS; #!::r=<streamKey>,m=publish also works)."
      srtUrl: String
      "<baseUrl>/webrtc/<streamKey> (WHIP); null when the node does not serve WHIP."
      whipUrl: String
      region: String
      "Lower is less loaded (live streams on the node)."
      loadScore: Float
      kind: IngestEndpointKind!
      clusterId: String!
    }

    type IngestMetadata {
      "UUID of the stream the key publishes to."
      streamId: ID!
      recordingEnabled: Boolean!
      title: String
    }

    type IngestEndpointResponse {
      primary: IngestEndpoint!
      fallbacks: [IngestEndpoint!]!
      metadata: IngestMetadata
    }

    enum InstanceStatus {
      RUNNING
      STARTING
      STOPPING
      STOPPED
      ERROR
      UNKNOWN
    }

    "One listening service of a node."
    type ServiceInstance {
      instanceId: String!
      "The node it runs on."
      nodeId: String!
      "graphql (control-plane nodes), playback (media-only nodes), rtmp or rtmps."
      serviceId: String!
      clusterId: String!
      protocol: String!
      host: String!
      port: Int!
      healthEndpoint: String
      "RUNNING while its node heartbeats; STOPPED once the node stopped cleanly; UNKNOWN when it went silent."
      status: InstanceStatus!
      "The node's last heartbeat."
      lastHealthCheck: Time
    }

    enum NodeStatus {
      HEALTHY
      DEGRADED
      UNHEALTHY
    }

    type ClusterStatus {
      clusterId: String!
      name: String!
      region: String
      latitude: Float
      longitude: Float
      nodeCount: Int!
      healthyNodeCount: Int!
      peerCount: Int!
      status: NodeStatus!
      clusterType: String!
      shortDescription: String
      currentStreams: Int!
      currentViewers: Int!
      egressMbps: Float
      egressCapacityMbps: Float
      ingressMbps: Float
      services: [String!]!
    }

    "A node of the deployment with its health and the load of its last heartbeat."
    type NetworkNode {
      nodeId: String!
      name: String!
      "all-in-one (control plane and media) or media (ingest and playback only)."
      nodeType: String!
      latitude: Float
      longitude: Float
      "HEALTHY; DEGRADED when draining or at its egress capacity; UNHEALTHY when stopped or silent for three heartbeats."
      status: NodeStatus!
      clusterId: String!
      baseUrl: String!
      region: String
      "NORMAL or DRAINING (never chosen for new viewers)."
      mode: String!
      "CPU of the node process, % of its machine."
      cpuPercent: Float!
      viewers: Int!
      "Live streams held (ingested or relayed)."
      streams: Int!
      egressMbps: Float!
      egressCapacityMbps: Float!
      lastHeartbeat: Time!
    }

    type PeerConnection {
      sourceCluster: String!
      targetCluster: String!
      connected: Boolean!
      connectionType: String!
    }

    type NetworkStatus {
      clusters: [ClusterStatus!]!
      nodes: [NetworkNode!]!
      peerConnections: [PeerConnection!]!
      "This node's listening services (what serviceInstancesHealth answers)."
      serviceInstances: [ServiceInstance!]!
      totalNodes: Int!
      healthyNodes: Int!
      updatedAt: Time!
    }

    extend type Query {
      "Public. Ingest URLs for a stream key; NOT_FOUND for an unknown or inactive key; 60 lookups per minute per client IP."
      resolveIngestEndpoint(streamKey: String!): IngestEndpointResponse
      "Public. The listening services of every node (optionally one serviceId)."
      serviceInstancesHealth(serviceId: String): [ServiceInstance!]!
      "Public. Clusters and nodes of this deployment."
      networkStatus: NetworkStatus!
    }
  `,
  resolvers: {
    Query: {
      resolveIngestEndpoint: (_root, { streamKey }, ctx) =>
        ctx.services.publicInfo.resolveIngestEndpoint(streamKey, ctx.ip),
      serviceInstancesHealth: (_root, { serviceId }, ctx) => ctx.services.publicInfo.serviceInstances(serviceId),
      networkStatus: (_root, _args, ctx) => ctx.services.publicInfo.networkStatus(),
    },
    ServiceInstance: {
      lastHealthCheck: (instance) => instance.lastHealthCheck.toISOString(),
    },
    NetworkStatus: {
      updatedAt: (status) => status.updatedAt.toISOString(),
      nodes: (status) => status.nodes.map((node) => ({ ...node, lastHeartbeat: node.lastHeartbeat.toISOString() })),
    },
  } satisfies Resolvers,
};
