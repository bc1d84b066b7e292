/**
 * Facts about this node that public queries report (ingest URLs, health, network status).
 */

/** This node's identity and addresses. */
export interface NodeInfo {
  readonly nodeId: string;
  readonly version: string;
  readonly startedAt: Date;
  /** Base URL of the HTTP API and playback (no trailing slash). */
  readonly baseUrl: string;
  /** Host name encoders use for RTMP/SRT. */
  readonly ingestHost: string;
  readonly rtmpPort: number;
  readonly rtmpsPort: number | undefined;
  readonly srtPort: number;
  readonly httpPort: number;
  /** True when this node serves WHIP at `<baseUrl>/webrtc/<streamKey>`. */
  readonly whip?: boolean;
}
