/**
 * What the public queries report (no token): the ingest endpoint of a stream key, this node's
 * service instances, and the network status — one cluster of the nodes with a fresh heartbeat,
 * with this node's live stream and viewer counts.
 */
import { NotFoundError } from '../errors.js';
import type { NodeInfo } from '../node-info.js';
import type { StreamKeysService } from '../streams/stream-keys.service.js';
import type { NodeHealth, NodeStatusService, NodeView } from './node-status.service.js';

/** The single cluster a self-hosted deployment forms. */
export const LOCAL_CLUSTER_ID = 'local';

/** One ingest endpoint of a node. */
export interface IngestEndpointView {
  readonly nodeId: string;
  readonly baseUrl: string;
  readonly rtmpUrl: string;
  readonly rtmpsUrl: string | null;
  /** `srt://<host>:<srtPort>?streamid=<streamKey>` (also accepted: `streamid=#!::r=<streamKey>,m=publish`). */
  readonly srtUrl: string;
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

/** One service instance of a node. */
export interface ServiceInstanceView {
  readonly instanceId: string;
  readonly nodeId: string;
  readonly serviceId: string;
  readonly clusterId: string;
  readonly protocol: string;
  readonly host: string;
  readonly port: number;
  readonly healthEndpoint: string | null;
  /** RUNNING while its node heartbeats, STOPPED once the node stopped cleanly, UNKNOWN when it went silent. */
  readonly status: 'RUNNING' | 'STOPPED' | 'UNKNOWN';
  readonly lastHealthCheck: Date;
}

/** One node as networkStatus lists it. */
export interface NetworkNodeView {
  readonly nodeId: string;
  readonly name: string;
  readonly nodeType: string;
  readonly status: NodeHealth;
  readonly clusterId: string;
  readonly baseUrl: string;
  readonly region: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  /** NORMAL or DRAINING. */
  readonly mode: string;
  readonly cpuPercent: number;
  readonly viewers: number;
  readonly streams: number;
  readonly egressMbps: number;
  readonly egressCapacityMbps: number;
  readonly lastHeartbeat: Date;
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
    readonly status: NodeHealth;
    readonly clusterType: string;
    readonly shortDescription: string;
    readonly currentStreams: number;
    readonly currentViewers: number;
    readonly egressMbps: number;
    readonly egressCapacityMbps: number;
    readonly services: readonly string[];
  }[];
  readonly nodes: readonly NetworkNodeView[];
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
        srtUrl: `srt://${host}:${node.srtPort}?streamid=${key}`,
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

  /** The listening services of every node, optionally only those of `serviceId`. */
  async serviceInstances(serviceId?: string | null): Promise<ServiceInstanceView[]> {
    const nodes = await this.deps.nodes.nodes();
    const all = nodes.flatMap((node) =>
      node.services.map(
        (service): ServiceInstanceView => ({
          instanceId: `${node.id}:${service.serviceId}`,
          nodeId: node.id,
          serviceId: service.serviceId,
          clusterId: LOCAL_CLUSTER_ID,
          protocol: service.protocol,
          host: service.host,
          port: service.port,
          healthEndpoint: service.healthEndpoint,
          status: node.health !== 'UNHEALTHY' ? 'RUNNING' : node.stoppedAt ? 'STOPPED' : 'UNKNOWN',
          lastHealthCheck: node.heartbeatAt,
        }),
      ),
    );
    return serviceId ? all.filter((item) => item.serviceId === serviceId) : all;
  }

  /** The deployment as one cluster of every node heard of in the last week, with health and load. */
  async networkStatus(): Promise<NetworkStatusView> {
    const list = await this.deps.nodes.nodes();
    const nodes = list.map((node) => networkNode(node));
    const healthy = list.filter((node) => node.health === 'HEALTHY').length;
    const up = list.filter((node) => node.health !== 'UNHEALTHY');
    const sum = (pick: (node: NodeView) => number) => up.reduce((total, node) => total + pick(node), 0);
    return {
      clusters: [
        {
          clusterId: LOCAL_CLUSTER_ID,
          name: 'Local cluster',
          region: null,
          nodeCount: nodes.length,
          healthyNodeCount: healthy,
          peerCount: 0,
          status: healthy === list.length ? 'HEALTHY' : healthy > 0 ? 'DEGRADED' : 'UNHEALTHY',
          clusterType: 'self-hosted',
          shortDescription: 'Nodes sharing this database',
          currentStreams: sum((node) => node.streams),
          currentViewers: sum((node) => node.viewers),
          egressMbps: sum((node) => node.egressMbps),
          egressCapacityMbps: sum((node) => node.capacityMbps),
          services: [...new Set(up.flatMap((node) => node.services.map((service) => service.serviceId)))].sort(),
        },
      ],
      nodes,
      peerConnections: [],
      serviceInstances: await this.serviceInstances(),
      totalNodes: nodes.length,
      healthyNodes: healthy,
      updatedAt: new Date(),
    };
  }

  private loadScore(): number {
    return this.deps.live().streams;
  }
}

function networkNode(node: NodeView): NetworkNodeView {
  return {
    nodeId: node.id,
    name: node.self ? `${node.id} (this node)` : node.id,
    nodeType: node.role === 'media' ? 'media' : 'all-in-one',
    status: node.health,
    clusterId: LOCAL_CLUSTER_ID,
    baseUrl: node.baseUrl,
    region: node.region,
    latitude: node.latitude,
    longitude: node.longitude,
    mode: node.mode,
    cpuPercent: node.cpuPercent,
    viewers: node.viewers,
    streams: node.streams,
    egressMbps: node.egressMbps,
    egressCapacityMbps: node.capacityMbps,
    lastHeartbeat: node.heartbeatAt,
  };
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
