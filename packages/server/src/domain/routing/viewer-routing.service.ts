/**
 * resolveViewerEndpoint (spec §2 "Viewer endpoint resolution result", §4 rule 6): where a viewer
 * should play a piece of content. The viewer's address comes from the socket, or from
 * X-Forwarded-For / Forwarded when the peer is a trusted proxy; without one the query fails with
 * a clear error. The address is geolocated (only when nodes have positions), healthy nodes are
 * ranked by distance and load (node-scoring.ts), and the best one is `primary`, the next four
 * `fallbacks`, each with the URL of every output. Gated content is checked like a media request
 * (the token travels in X-Airwave-Playback-JWT and is carried into every URL).
 * Content kinds plug in as ContentResolvers: live streams, VOD assets, recordings, chapters and clips.
 */
import type { CidrSet } from '../../net/cidr.js';
import { clientAddress, type ForwardingInput } from '../../net/client-address.js';
import type { ContentType } from '../analytics/session-recorder.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { NodeView } from '../node-status/node-status.service.js';
import type { GeoLocator } from './geo.js';
import { rankNodes, type ScoredNode } from './node-scoring.js';

/** The viewers of a stream summed over the heartbeats of every node that is not unhealthy. */
export function viewersAcross(nodes: readonly NodeView[], streamId: string): number {
  let viewers = 0;
  for (const node of nodes) {
    if (node.health !== 'UNHEALTHY') {
      viewers += node.streamViewers[streamId] ?? 0;
    }
  }
  return viewers;
}

/** One track as the metadata lists it. */
export interface ContentTrack {
  readonly type: 'video' | 'audio';
  readonly codec: string;
  readonly bitrateKbps: number | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly channels: number | null;
  readonly sampleRate: number | null;
}

/** What a content resolver knows of a playback id. */
export interface ResolvedContent {
  readonly contentId: string;
  readonly contentType: ContentType;
  readonly title: string | null;
  readonly description: string | null;
  /** Status as its kind names it (a stream: OFFLINE, LIVE, RECONNECTING, …). */
  readonly status: string;
  readonly isLive: boolean;
  readonly viewers: number;
  readonly tracks: readonly ContentTrack[];
  /** Nodes that hold the content now (a live stream: its ingesting node). */
  readonly holders: readonly string[];
  /** Output keys available for it (HLS, HLS_CMAF, DASH, MP4, WHEP). */
  readonly outputs: readonly OutputKey[];
  /** The only nodes that can serve it (content in one node's local storage); undefined: any node. */
  readonly servedOnlyBy?: readonly string[];
}

/** Finds one kind of content by playback id. */
export interface ContentResolver {
  /** The content, or undefined when this kind has none with that id. */
  resolve(contentId: string, nodes: readonly NodeView[]): Promise<ResolvedContent | undefined>;
}

/** Output keys (FrameWorks' names) and where each lives under `/play/<id>`. */
export const OUTPUT_PATHS = {
  HLS: { protocol: 'hls', path: '/hls/index.m3u8', seek: false, switching: false },
  HLS_CMAF: { protocol: 'll-hls', path: '/cmaf/index.m3u8', seek: false, switching: false },
  DASH: { protocol: 'dash', path: '/cmaf/index.mpd', seek: false, switching: false },
  MP4: { protocol: 'mp4', path: '.mp4', seek: false, switching: false },
  WHEP: { protocol: 'webrtc', path: '/webrtc', seek: false, switching: false },
} as const;

/** An output key. */
export type OutputKey = keyof typeof OUTPUT_PATHS;

/** The node output that serves each key (a node lists what it serves when it registers). */
const NODE_OUTPUT: Record<OutputKey, string> = {
  HLS: 'hls',
  HLS_CMAF: 'llhls',
  DASH: 'dash',
  MP4: 'mp4',
  WHEP: 'webrtc',
};

/** One output of a node. */
export interface EndpointOutput {
  readonly protocol: string;
  readonly url: string;
  readonly capabilities: {
    readonly supportsSeek: boolean;
    readonly supportsQualitySwitch: boolean;
    readonly hasAudio: boolean;
    readonly hasVideo: boolean;
  };
}

/** One node to play from. */
export interface ViewerEndpoint {
  readonly nodeId: string;
  readonly baseUrl: string;
  /** `hls`; `url` is the LL-HLS playlist (CMAF), which hls.js and Apple players play. */
  readonly protocol: string;
  readonly url: string;
  readonly geoDistance: number | null;
  readonly loadScore: number;
  readonly outputs: Readonly<Partial<Record<OutputKey, EndpointOutput>>>;
}

/** The answer. */
export interface ViewerEndpointResolution {
  /** Null when no node is healthy. */
  readonly primary: ViewerEndpoint | null;
  readonly fallbacks: readonly ViewerEndpoint[];
  readonly metadata: Omit<ResolvedContent, 'holders' | 'outputs'>;
}

/** A playback access decision (PlaybackAccessService.decide). */
export type AccessCheck = (input: {
  readonly contentId: string;
  readonly token: string | undefined;
  readonly viewerIp: string;
}) => Promise<{
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: string;
  readonly detail: string;
  readonly token: string | null;
}>;

/** What the service needs. */
export interface ViewerRoutingDeps {
  readonly resolvers: readonly ContentResolver[];
  /** Every node with its health. */
  readonly nodes: () => Promise<NodeView[]>;
  readonly locator: GeoLocator;
  readonly trustedProxies: CidrSet;
  readonly access?: AccessCheck;
  /** How long the node list, and what a content id resolved to, are reused (default 1 s). */
  readonly cacheMs?: number;
}

/** Content ids whose resolution is remembered at once (past it the memo starts over). */
const CONTENT_MEMO_MAX = 10_000;

/** Most fallbacks returned. */
export const MAX_FALLBACKS = 4;
const CONTENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Routes viewers to nodes. */
export class ViewerRoutingService {
  private cached: { at: number; nodes: Promise<NodeView[]> } | undefined;
  /** Viewers of one stream arrive together: one lookup serves them all for `cacheMs`. */
  private readonly contents = new Map<string, { at: number; content: Promise<ResolvedContent | undefined> }>();

  constructor(private readonly deps: ViewerRoutingDeps) {}

  /** Where the viewer of `request` should play `contentId`. */
  async resolve(
    contentId: string,
    request: ForwardingInput,
    playbackToken?: string,
  ): Promise<ViewerEndpointResolution> {
    const address = clientAddress(request, this.deps.trustedProxies);
    if (!address.ok) {
      throw new ValidationError(
        'viewerIp',
        'undeterminable',
        `the viewer's IP address cannot be determined (${address.problem}); a trusted proxy must send X-Forwarded-For or Forwarded`,
      );
    }
    const id = contentId.trim();
    if (!CONTENT_ID.test(id)) {
      throw new ValidationError('contentId', 'format', 'contentId is a playback id: 1–128 letters, digits, - or _');
    }
    const nodes = await this.nodes();
    const content = await this.content(id, nodes);
    if (!content) {
      throw new NotFoundError('Content', id);
    }
    const token = await this.checkAccess(id, playbackToken, address.ip);
    // Only a deployment with node positions needs the viewer's (and loads the database).
    const viewer = nodes.some((node) => node.latitude !== null) ? this.deps.locator.locate(address.ip) : undefined;
    const only = content.servedOnlyBy;
    const servers = only ? nodes.filter((node) => only.includes(node.id)) : nodes;
    const ranked = rankNodes(servers, viewer, new Set(content.holders));
    const endpoints = ranked.slice(0, 1 + MAX_FALLBACKS).map((scored) => endpointOf(scored, content, token));
    const { holders: _holders, outputs: _outputs, servedOnlyBy: _only, ...metadata } = content;
    return { primary: endpoints[0] ?? null, fallbacks: endpoints.slice(1), metadata };
  }

  private content(id: string, nodes: readonly NodeView[]): Promise<ResolvedContent | undefined> {
    const now = Date.now();
    const known = this.contents.get(id);
    if (known && now - known.at <= (this.deps.cacheMs ?? 1000)) {
      return known.content;
    }
    const content = (async () => {
      for (const resolver of this.deps.resolvers) {
        const found = await resolver.resolve(id, nodes);
        if (found) {
          return found;
        }
      }
      return undefined;
    })();
    if (this.contents.size >= CONTENT_MEMO_MAX) {
      this.contents.clear();
    }
    this.contents.set(id, { at: now, content });
    content.catch(() => this.contents.delete(id));
    return content;
  }

  /** A live stream's viewers over every node that is not unhealthy (their heartbeats, at most a second old here). */
  async viewersOnEveryNode(streamId: string): Promise<number> {
    return viewersAcross(await this.nodes(), streamId);
  }

  private nodes(): Promise<NodeView[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > (this.deps.cacheMs ?? 1000)) {
      const nodes = this.deps.nodes();
      this.cached = { at: now, nodes };
      nodes.catch(() => {
        this.cached = undefined;
      });
    }
    return this.cached.nodes;
  }

  /** The token to carry into URLs; throws UNAUTHORIZED / FORBIDDEN as the gate would refuse the viewer. */
  private async checkAccess(
    contentId: string,
    token: string | undefined,
    viewerIp: string,
  ): Promise<string | undefined> {
    if (!this.deps.access) {
      return undefined;
    }
    const decision = await this.deps.access({ contentId, token, viewerIp });
    if (decision.allowed) {
      return decision.token ?? undefined;
    }
    const message = `playback of ${contentId} refused (${decision.reason})${decision.detail ? `: ${decision.detail}` : ''}; send the playback token in X-Airwave-Playback-JWT`;
    throw decision.status === 401 ? new UnauthorizedError(message) : new ForbiddenError(message);
  }
}

function endpointOf(scored: ScoredNode, content: ResolvedContent, token: string | undefined): ViewerEndpoint {
  const { node } = scored;
  const base = `${node.baseUrl}/play/${encodeURIComponent(content.contentId)}`;
  const query = token ? `?jwt=${encodeURIComponent(token)}` : '';
  const hasAudio = content.tracks.some((track) => track.type === 'audio');
  const hasVideo = content.tracks.some((track) => track.type === 'video');
  const outputs: Partial<Record<OutputKey, EndpointOutput>> = {};
  for (const key of content.outputs) {
    const output = OUTPUT_PATHS[key];
    if (node.outputs.includes(NODE_OUTPUT[key])) {
      outputs[key] = {
        protocol: output.protocol,
        url: `${base}${output.path}${query}`,
        capabilities: { supportsSeek: output.seek, supportsQualitySwitch: output.switching, hasAudio, hasVideo },
      };
    }
  }
  return {
    nodeId: node.id,
    baseUrl: node.baseUrl,
    protocol: 'hls',
    url: outputs.HLS_CMAF?.url ?? `${base}${OUTPUT_PATHS.HLS_CMAF.path}${query}`,
    geoDistance: scored.geoDistance,
    loadScore: scored.loadScore,
    outputs,
  };
}
