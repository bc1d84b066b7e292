/**
 * What the public queries report (no token): the ingest endpoint of a stream key, this node's
 * service instances, and the network status — one cluster of the nodes with a fresh heartbeat,
 * with this node's live stream and viewer counts.
 */
import { NotFoundError } from '../errors.js';
import type { NodeInfo } from '../node-info.js';
import type { StreamKeysService } from '../streams/stream-keys.service.js';
import type { NodeStatusService } from './node-status.service.js';

/** The single cluster a self-hosted deployment forms. */
export const LOCAL_CLUSTER_ID = 'local';

/** One ingest endpoint of a node. */
export interface IngestEndpointView {
  readonly nodeId: string;
  readonly baseUrl: string;
  readonly rtmpUrl: string;
  readonly rtmpsUrl: string | null;
  /** Null: this build has no SRT listener yet (no URL is handed out that nothing serves). */
  readonly srtUrl: null;
  /** `<baseUrl>/webrtc/<streamKey>`; null when the node does not serve WHIP. */
  readonly whipUrl: string | null;
  readonly region: string | null;
  readonly loadScore: number;
  readonly kind: 'INGEST_ENDPOINT_KIND_NODE_SPECIFIC';
  readonly clusterId: string;
}

/** Answer of resolveIngestEndpoint. */
export interface IngestResolution {
  readonly primary: IngestEndpointView;
  readonly fallbacks: readonly IngestEndpointView[];
  readonly metadata: { readonly streamId: string; readonly recordingEnabled: boolean; readonly title: string };
}

/** One service instance of this node. */
export interface ServiceInstanceView {
  readonly instanceId: string;
  readonly serviceId: string;
  readonly clusterId: string;
  readonly protocol: string;
  readonly host: string;
  readonly port: number;
  readonly healthEndpoint: string | null;
  readonly status: 'RUNNING';
  readonly lastHealthCheck: Date;
}

/** Answer of networkStatus. */
export interface NetworkStatusView {
  readonly clusters: readonly {
    readonly clusterId: string;
    readonly name: string;
    readonly region: string | null;
    readonly nodeCount: number;
    readonly healthyNodeCount: number;
    readonly peerCount: number;
    readonly status: 'HEALTHY' | 'DEGRADED';
    readonly clusterType: string;
    readonly shortDescription: string;
    readonly currentStreams: number;
    readonly currentViewers: number;
    readonly services: readonly string[];
  }[];
  readonly nodes: readonly {
    readonly nodeId: string;
    readonly name: string;
    readonly nodeType: string;
    readonly status: 'HEALTHY';
    readonly clusterId: string;
  }[];
  readonly peerConnections: readonly never[];
  readonly serviceInstances: readonly ServiceInstanceView[];
  readonly totalNodes: number;
  readonly healthyNodes: number;
  readonly updatedAt: Date;
}

/** Live counts of this node's hub. */
export interface LiveCounts {
  readonly streams: number;
  readonly viewers: number;
}

/** What the public info service needs. */
export interface PublicInfoDeps {
  readonly keys: StreamKeysService;
  readonly nodes: NodeStatusService;
  /** This node's current facts (ports are known only once listeners are bound). */
  readonly node: () => NodeInfo;
  readonly live: () => LiveCounts;
  /** Throws RateLimitedError when `ip` looked up too many stream keys (per-IP budget). */
  readonly limitLookups?: (ip: string) => void;
}

/** Stream-key lookups one client IP may make per minute through resolveIngestEndpoint. */
export const INGEST_LOOKUPS_PER_MINUTE = 60;

/** Public (unauthenticated) facts about ingest and this deployment. */
export class PublicInfoService {
  constructor(private readonly deps: PublicInfoDeps) {}

  /**
   * Where an encoder should push `streamKey`; NOT_FOUND for an unknown or inactive key,
   * RATE_LIMITED when `callerIp` exceeded its lookup budget.
   */
  async resolveIngestEndpoint(streamKey: string, callerIp: string): Promise<IngestResolution> {
    this.deps.limitLookups?.(callerIp);
    const value = streamKey.trim();
    const grant = await this.deps.keys.lookup(value);
    if (!grant) {
      throw new NotFoundError('StreamKey', '(the given key)');
    }
    const node = this.deps.node();
    const key = encodeURIComponent(value);
    const host = hostForUrl(node.ingestHost);
    return {
      primary: {
        nodeId: node.nodeId,
        baseUrl: node.baseUrl,
        rtmpUrl: `rtmp://${host}:${node.rtmpPort}/live/${key}`,
        rtmpsUrl: node.rtmpsPort === undefined ? null : `rtmps://${host}:${node.rtmpsPort}/live/${key}`,
        srtUrl: null,
        whipUrl: node.whip ? `${node.baseUrl}/webrtc/${key}` : null,
        region: null,
        loadScore: this.loadScore(),
        kind: 'INGEST_ENDPOINT_KIND_NODE_SPECIFIC',
        clusterId: LOCAL_CLUSTER_ID,
      },
      fallbacks: [],
      metadata: { streamId: grant.streamId, recordingEnabled: grant.record, title: grant.name },
    };
  }

  /** This node's listening services, optionally only those of `serviceId`. */
  serviceInstances(serviceId?: string | null): ServiceInstanceView[] {
    const node = this.deps.node();
    const host = node.ingestHost;
    const now = new Date();
    const instance = (service: string, protocol: string, port: number, health: string | null): ServiceInstanceView => ({
      instanceId: `${node.nodeId}:${service}`,
      serviceId: service,
      clusterId: LOCAL_CLUSTER_ID,
      protocol,
      host,
      port,
      healthEndpoint: health,
      status: 'RUNNING',
      lastHealthCheck: now,
    });
    const all = [
      instance(
        'graphql',
        new URL(node.baseUrl).protocol.replace(':', ''),
        node.httpPort,
        `${node.baseUrl}/graphql?query=%7Bping%7D`,
      ),
      instance('rtmp', 'rtmp', node.rtmpPort, null),
      ...(node.rtmpsPort === undefined ? [] : [instance('rtmps', 'rtmps', node.rtmpsPort, null)]),
    ];
    return serviceId ? all.filter((item) => item.serviceId === serviceId) : all;
  }

  /** The deployment as one cluster of the nodes with a fresh heartbeat. */
  async networkStatus(): Promise<NetworkStatusView> {
    const self = this.deps.node();
    const fresh = await this.deps.nodes.freshNodes();
    const ids = new Set([self.nodeId, ...fresh.map((row) => row.id)]);
    const nodes = [...ids].sort().map((nodeId) => ({
      nodeId,
      name: nodeId === self.nodeId ? `${self.ingestHost} (this node)` : nodeId,
      nodeType: 'all-in-one',
      status: 'HEALTHY' as const,
      clusterId: LOCAL_CLUSTER_ID,
    }));
    const live = this.deps.live();
    return {
      clusters: [
        {
          clusterId: LOCAL_CLUSTER_ID,
          name: 'Local cluster',
          region: null,
          nodeCount: nodes.length,
          healthyNodeCount: nodes.length,
          peerCount: 0,
          status: 'HEALTHY',
          clusterType: 'self-hosted',
          shortDescription: 'Nodes sharing this database',
          currentStreams: live.streams,
          currentViewers: live.viewers,
          services: this.serviceInstances().map((item) => item.serviceId),
        },
      ],
      nodes,
      peerConnections: [],
      serviceInstances: this.serviceInstances(),
      totalNodes: nodes.length,
      healthyNodes: nodes.length,
      updatedAt: new Date(),
    };
  }

  private loadScore(): number {
    return this.deps.live().streams;
  }
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
