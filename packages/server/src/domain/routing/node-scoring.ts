/**
 * Scoring of nodes for a viewer (docs/adr/0040-viewer-routing-score.md): the lower the cost the
 * better; cost = GEO·(distance / half the Earth's circumference) + CPU·cpu + BW·(egress / capacity)
 * − BONUS when the node already holds the stream. Only healthy nodes in NORMAL mode below their
 * egress capacity are candidates. `loadScore` (0 idle … 1 saturated) is the load part alone,
 * normalised: (CPU·cpu + BW·bandwidth) / (CPU + BW).
 */
import type { NodeView } from '../node-status/node-status.service.js';
import { distanceKm, type GeoPoint, MAX_DISTANCE_KM } from './geo.js';

/** Weights, after FrameWorks' Foghorn defaults (CPU 500, bandwidth 1000, geo 1000, stream bonus 50). */
export const WEIGHTS = { geo: 1000, cpu: 500, bandwidth: 1000, streamBonus: 50 } as const;

/** A candidate with its score. */
export interface ScoredNode {
  readonly node: NodeView;
  /** Great-circle km between viewer and node; null when either position is unknown. */
  readonly geoDistance: number | null;
  /** 0 (idle) … 1 (saturated). */
  readonly loadScore: number;
  /** Lower is better. */
  readonly cost: number;
}

/** Whether a node may receive new viewers. */
export function isCandidate(node: NodeView): boolean {
  return node.health === 'HEALTHY' && node.mode === 'NORMAL' && node.egressMbps < node.capacityMbps;
}

/** Scores the candidates for a viewer at `viewer` (undefined: not located) of a stream held by `holders`; best first. */
export function rankNodes(
  nodes: readonly NodeView[],
  viewer: GeoPoint | undefined,
  holders: ReadonlySet<string>,
): ScoredNode[] {
  const scored = nodes.filter(isCandidate).map((node): ScoredNode => {
    const position =
      node.latitude !== null && node.longitude !== null
        ? { latitude: node.latitude, longitude: node.longitude }
        : undefined;
    const geoDistance = viewer && position ? distanceKm(viewer, position) : null;
    // A located viewer prefers located nodes; an unlocated one is routed on load alone.
    const geo = viewer ? (geoDistance === null ? 1 : geoDistance / MAX_DISTANCE_KM) : 0;
    const cpu = clamp(node.cpuPercent / 100);
    const bandwidth = clamp(node.egressMbps / node.capacityMbps);
    const load = WEIGHTS.cpu * cpu + WEIGHTS.bandwidth * bandwidth;
    const cost = WEIGHTS.geo * geo + load - (holders.has(node.id) ? WEIGHTS.streamBonus : 0);
    return {
      node,
      geoDistance: geoDistance === null ? null : Math.round(geoDistance * 10) / 10,
      loadScore: Math.round((load / (WEIGHTS.cpu + WEIGHTS.bandwidth)) * 1000) / 1000,
      cost,
    };
  });
  return scored.sort((a, b) => a.cost - b.cost || a.node.id.localeCompare(b.node.id));
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
}
