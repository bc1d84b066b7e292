/**
 * Service configuration from environment variables and matching command-line flags
 * (`--http-port 8080` ⇔ `AIRWAVE_HTTP_PORT=8080`), validated at start with clear errors.
 */
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { type ClusterConfig, clusterConfigOf, clusterSettings } from './cluster-config.js';
import { type StorageConfig, storageConfigOf, storageSettings } from './storage-config.js';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .default('false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const schema = z.object({
  AIRWAVE_HOST: z.string().min(1).default('0.0.0.0'),
  AIRWAVE_HTTP_PORT: port(8080),
  AIRWAVE_HTTP_SOCKET: z.string().min(1).max(100).optional(),
  AIRWAVE_RTMP_PORT: port(1935),
  AIRWAVE_RTMPS_PORT: port(1936),
  AIRWAVE_SRT_PORT: port(8889),
  AIRWAVE_SRT_LATENCY_MS: z.coerce.number().int().min(20).max(8000).default(120),
  AIRWAVE_SRT_PASSPHRASE: z.string().min(10).max(79).optional(),
  AIRWAVE_TLS_CERT: z.string().optional(),
  AIRWAVE_TLS_KEY: z.string().optional(),
  AIRWAVE_DATA_DIR: z.string().min(1).default('./data'),
  AIRWAVE_EMBEDDED_DATABASE: z.enum(['postgres', 'pglite']).optional(),
  AIRWAVE_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  AIRWAVE_RECONNECT_WINDOW_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  AIRWAVE_VIEWER_IDLE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  AIRWAVE_PACKAGING: z.enum(['on-demand', 'always']).default('on-demand'),
  AIRWAVE_PACKAGER_IDLE_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
  AIRWAVE_RTMP_MERGED_READ_MS: z.coerce.number().int().min(0).max(1000).default(100),
  AIRWAVE_ALLOW_PRIVATE_WEBHOOKS: bool,
  AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: bool,
  AIRWAVE_PULL_MAX_SOURCES: z.coerce.number().int().min(0).max(10_000).default(100),
  AIRWAVE_PULL_RETRY_MAX_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  AIRWAVE_PULL_STALL_SECONDS: z.coerce.number().min(1).max(3600).default(10),
  AIRWAVE_PULL_IDLE_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
  AIRWAVE_PULL_RTSP: z.enum(['in-process', 'ffmpeg']).default('in-process'),
  AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: bool,
  AIRWAVE_PUSH_RETRY_MAX_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  AIRWAVE_PUSH_RESYNC_SECONDS: z.coerce.number().min(1).max(86_400).default(10),
  AIRWAVE_PUSH_CA_FILE: z.string().optional(),
  AIRWAVE_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  AIRWAVE_API_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(6000),
  AIRWAVE_WEBRTC: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  AIRWAVE_WEBRTC_UDP_PORT_MIN: z.coerce.number().int().min(0).max(65_535).default(0),
  AIRWAVE_WEBRTC_UDP_PORT_MAX: z.coerce.number().int().min(0).max(65_535).default(0),
  AIRWAVE_WEBRTC_PUBLIC_IPS: z.string().default(''),
  AIRWAVE_WEBRTC_ICE_TCP: bool,
  AIRWAVE_WEBRTC_ICE_SERVERS: z.string().default(''),
  // recording (issue 14)
  AIRWAVE_STORAGE_DIR: z.string().min(1).optional(),
  AIRWAVE_DVR_CHAPTER_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(3600),
  AIRWAVE_DVR_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(7 * 86_400)
    .default(7200),
  AIRWAVE_RETENTION_SWEEP_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(3600),
  AIRWAVE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...clusterSettings,
  ...storageSettings,
});

/** Validated configuration of one Airwave process. */
export interface Config extends ClusterConfig, StorageConfig {
  readonly host: string;
  readonly httpPort: number;
  /** A Unix socket path the HTTP API listens on as well (for a cache on the same host), or undefined. */
  readonly httpSocket: string | undefined;
  readonly rtmpPort: number;
  /** RTMPS listens only when both tlsCert and tlsKey are set. */
  readonly rtmpsPort: number;
  readonly srtPort: number;
  /** SRT receiver latency offered to callers (the larger of this and the caller's is used). */
  readonly srtLatencyMs: number;
  /** The node's SRT passphrase for streams without their own (undefined: unencrypted allowed). */
  readonly srtPassphrase: string | undefined;
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  /** Absolute path of the data directory (PGlite database, media, secrets). */
  readonly dataDir: string;
  /** Base URL printed and used in absolute URLs; derived from host and port when unset. */
  readonly publicUrl: string | undefined;
  readonly databaseUrl: string | undefined;
  /** Without DATABASE_URL: the embedded database asked for (undefined: PostgreSQL unless the data directory holds PGlite). */
  readonly embeddedDatabase: 'postgres' | 'pglite' | undefined;
  readonly reconnectWindowMs: number;
  /** An HLS/DASH viewer stops counting after this long without a request. */
  readonly viewerIdleMs: number;
  /** HLS/LL-HLS/DASH packaging: only while viewers ask (`on-demand`) or from publish on (`always`). */
  readonly packaging: 'on-demand' | 'always';
  /** On demand: a stream's packagers stop after this long without a playback request. */
  readonly packagerIdleMs: number;
  /** Local object storage root of recordings, chapters, clips and images (default `<dataDir>/storage`). */
  readonly storageDir: string;
  /** Recordings are cut into chapters of this many seconds of media (0: one chapter per recording). */
  readonly dvrChapterSeconds: number;
  /** How far back live viewers can seek in a recorded stream (`/play/<id>/dvr/`), seconds. */
  readonly dvrWindowSeconds: number;
  /** How often expired recordings, clips and VOD assets are deleted (retention sweep), seconds. */
  readonly retentionSweepSeconds: number;
  /** An RTMP publisher nobody watches is read at most once per this many ms (0: as bytes arrive). */
  readonly rtmpMergedReadMs: number;
  readonly allowPrivateWebhooks: boolean;
  readonly allowPrivatePullSources: boolean;
  /** Most pull sources this node pulls at once. */
  readonly pullMaxSources: number;
  /** Longest wait between pull attempts (the backoff's cap). */
  readonly pullRetryMaxMs: number;
  /** A pulled source without media this long is stalled and reconnected. */
  readonly pullStallMs: number;
  /** An on-demand pull nobody watched this long stops. */
  readonly pullIdleMs: number;
  /** Who reads RTSP sources: the in-process client (ffmpeg only for tracks it alone reads) or always ffmpeg. */
  readonly pullRtsp: 'in-process' | 'ffmpeg';
  /** Push targets may be private, loopback, link-local or multicast addresses. */
  readonly allowPrivatePushTargets: boolean;
  /** Longest wait between push attempts (the backoff's cap). */
  readonly pushRetryMaxMs: number;
  /** How often the push runner re-reads its live streams' targets (a safety net behind the bus events). */
  readonly pushResyncMs: number;
  /** PEM file of extra CA certificates trusted for rtmps:// push destinations. */
  readonly pushCaFile: string | undefined;
  readonly sessionSecret: string | undefined;
  /** GraphQL requests per minute per session, developer token or anonymous IP; 0 = no limit. */
  readonly apiRateLimitPerMinute: number;
  readonly logLevel: string;
  /** WHIP ingest and WHEP playback (werift); see webrtcConfig for the network settings. */
  readonly webrtc: WebRtcConfig;
}

/** WebRTC network settings. */
export interface WebRtcConfig {
  readonly enabled: boolean;
  /** Inclusive UDP port range for ICE; undefined: ephemeral ports. */
  readonly udpPortRange: readonly [number, number] | undefined;
  /** Extra host candidate addresses (public/NAT/Docker addresses; 127.0.0.1 for a loopback-only node). */
  readonly publicIps: readonly string[];
  /** Also offer passive ICE-TCP candidates. */
  readonly iceTcp: boolean;
  /** STUN/TURN URLs advertised to clients in Link headers. */
  readonly iceServers: readonly string[];
}

/** Thrown when configuration is invalid; the message lists every problem. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Maps `--http-port 1` / `--http-port=1` flags onto their AIRWAVE_* variable names. */
export function flagsToEnv(argv: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      continue;
    }
    const [rawName, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[i + 1];
    if (inline === undefined) {
      i++;
    }
    if (value === undefined) {
      throw new ConfigError(`flag --${rawName} needs a value`);
    }
    const name = rawName === 'database-url' ? 'DATABASE_URL' : `AIRWAVE_${rawName.toUpperCase().replaceAll('-', '_')}`;
    if (!(name in schema.shape)) {
      throw new ConfigError(`unknown flag --${rawName}`);
    }
    env[name] = value;
  }
  return env;
}

/** Reads and validates configuration; flags override environment variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const merged: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    merged[key] = value === '' ? undefined : value;
  }
  Object.assign(merged, flagsToEnv(argv));
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
  }
  const c = parsed.data;
  const portMin = c.AIRWAVE_WEBRTC_UDP_PORT_MIN;
  const portMax = c.AIRWAVE_WEBRTC_UDP_PORT_MAX;
  if ((portMin === 0) !== (portMax === 0) || portMin > portMax) {
    throw new ConfigError(
      'invalid configuration:\n  AIRWAVE_WEBRTC_UDP_PORT_MIN and AIRWAVE_WEBRTC_UDP_PORT_MAX must be set together, min ≤ max',
    );
  }
  const list = (value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  const publicIps = list(c.AIRWAVE_WEBRTC_PUBLIC_IPS);
  const badIp = publicIps.find((ip) => !isIP(ip));
  if (badIp !== undefined) {
    throw new ConfigError(`invalid configuration:\n  AIRWAVE_WEBRTC_PUBLIC_IPS: ${badIp} is not an IP address`);
  }
  const iceServers = list(c.AIRWAVE_WEBRTC_ICE_SERVERS);
  const badServer = iceServers.find((url) => !/^(stuns?|turns?):[^\s<>]+$/.test(url));
  if (badServer !== undefined) {
    throw new ConfigError(
      `invalid configuration:\n  AIRWAVE_WEBRTC_ICE_SERVERS: ${badServer} is not a stun:/turn: URL`,
    );
  }
  if (Boolean(c.AIRWAVE_TLS_CERT) !== Boolean(c.AIRWAVE_TLS_KEY)) {
    throw new ConfigError('invalid configuration:\n  AIRWAVE_TLS_CERT and AIRWAVE_TLS_KEY must be set together');
  }
  let cluster: ClusterConfig;
  try {
    cluster = clusterConfigOf(c);
  } catch (error) {
    throw new ConfigError(`invalid configuration:\n  ${(error as Error).message}`);
  }
  let storage: StorageConfig;
  try {
    storage = storageConfigOf(c);
  } catch (error) {
    throw new ConfigError(`invalid configuration:\n  ${(error as Error).message}`);
  }
  return {
    host: c.AIRWAVE_HOST,
    httpPort: c.AIRWAVE_HTTP_PORT,
    httpSocket: c.AIRWAVE_HTTP_SOCKET === undefined ? undefined : resolve(c.AIRWAVE_HTTP_SOCKET),
    rtmpPort: c.AIRWAVE_RTMP_PORT,
    rtmpsPort: c.AIRWAVE_RTMPS_PORT,
    srtPort: c.AIRWAVE_SRT_PORT,
    srtLatencyMs: c.AIRWAVE_SRT_LATENCY_MS,
    srtPassphrase: c.AIRWAVE_SRT_PASSPHRASE,
    tlsCert: c.AIRWAVE_TLS_CERT,
    tlsKey: c.AIRWAVE_TLS_KEY,
    dataDir: resolve(c.AIRWAVE_DATA_DIR),
    publicUrl: c.AIRWAVE_PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: c.DATABASE_URL,
    embeddedDatabase: c.AIRWAVE_EMBEDDED_DATABASE,
    reconnectWindowMs: c.AIRWAVE_RECONNECT_WINDOW_SECONDS * 1000,
    viewerIdleMs: c.AIRWAVE_VIEWER_IDLE_SECONDS * 1000,
    packaging: c.AIRWAVE_PACKAGING,
    packagerIdleMs: c.AIRWAVE_PACKAGER_IDLE_SECONDS * 1000,
    rtmpMergedReadMs: c.AIRWAVE_RTMP_MERGED_READ_MS,
    allowPrivateWebhooks: c.AIRWAVE_ALLOW_PRIVATE_WEBHOOKS,
    allowPrivatePullSources: c.AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES,
    pullMaxSources: c.AIRWAVE_PULL_MAX_SOURCES,
    pullRetryMaxMs: c.AIRWAVE_PULL_RETRY_MAX_SECONDS * 1000,
    pullStallMs: c.AIRWAVE_PULL_STALL_SECONDS * 1000,
    pullIdleMs: c.AIRWAVE_PULL_IDLE_SECONDS * 1000,
    pullRtsp: c.AIRWAVE_PULL_RTSP,
    allowPrivatePushTargets: c.AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS,
    pushRetryMaxMs: c.AIRWAVE_PUSH_RETRY_MAX_SECONDS * 1000,
    pushResyncMs: c.AIRWAVE_PUSH_RESYNC_SECONDS * 1000,
    pushCaFile: c.AIRWAVE_PUSH_CA_FILE,
    sessionSecret: c.AIRWAVE_SESSION_SECRET,
    apiRateLimitPerMinute: c.AIRWAVE_API_RATE_LIMIT,
    logLevel: c.AIRWAVE_LOG_LEVEL,
    storageDir: resolve(c.AIRWAVE_STORAGE_DIR ?? join(c.AIRWAVE_DATA_DIR, 'storage')),
    dvrChapterSeconds: c.AIRWAVE_DVR_CHAPTER_SECONDS,
    dvrWindowSeconds: c.AIRWAVE_DVR_WINDOW_SECONDS,
    retentionSweepSeconds: c.AIRWAVE_RETENTION_SWEEP_SECONDS,
    webrtc: {
      enabled: c.AIRWAVE_WEBRTC,
      udpPortRange: portMin === 0 ? undefined : [portMin, portMax],
      publicIps,
      iceTcp: c.AIRWAVE_WEBRTC_ICE_TCP,
      iceServers,
    },
    ...cluster,
    ...storage,
  };
}

/** Names and defaults of every setting, for the README table and `--help`. */
export const CONFIG_VARIABLES = Object.keys(schema.shape);
