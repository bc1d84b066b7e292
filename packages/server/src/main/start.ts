/**
 * The composition root: opens the database, builds the domain services, the media hub and its
 * listeners, the HTTP application, and starts everything. The only place that wires.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hub, type LiveStream, ReplayClock } from '@airwave/media';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import { SegmentSpool } from '@airwave/media/protocols/hls/ts/segment-spool';
import { TsHlsService } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import { ProgressiveMp4Service } from '@airwave/media/protocols/mp4/progressive-mp4-service';
import { ffmpegInputs } from '@airwave/media/protocols/pull/ffmpeg-input';
import { HttpRelay } from '@airwave/media/protocols/pull/http-relay';
import { pullInputs } from '@airwave/media/protocols/pull/pull-inputs';
import { readTransportStream } from '@airwave/media/protocols/pull/ts-reader';
import { readWebm } from '@airwave/media/protocols/pull/webm-reader';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';
import { SrtServer } from '@airwave/media/protocols/srt/server';
import { iceServerLinks } from '@airwave/media/protocols/webrtc/peer-options';
import { WebRtcService } from '@airwave/media/protocols/webrtc/webrtc-service';
import { AacToOpusTranscoders } from '@airwave/media/protocols/webrtc/whep/aac-to-opus';
import pino from 'pino';
import { Authenticator } from '../auth/authenticator.js';
import { csrfPlugin } from '../auth/csrf.js';
import { relayPlaybackAccessChanges } from '../auth/playback-gate/cross-process-invalidation.js';
import { ownerPreviewCheck } from '../auth/playback-gate/owner-preview.js';
import { AccessControlGate } from '../auth/playback-gate/playback-gate.js';
import { requestAuthenticator } from '../auth/request-auth.js';
import { RequestRateLimiter } from '../auth/request-rate-limiter.js';
import { SessionCookie } from '../auth/session-cookie.js';
import { generateSessionSecret, SessionTokens } from '../auth/session-tokens.js';
import type { Config } from '../config/config.js';
import { type Database, embeddedDatabase, openDatabase } from '../db/database.js';
import { AccountsService } from '../domain/accounts/accounts.service.js';
import { AccountsStore } from '../domain/accounts/accounts.store.js';
import { LoginLimiter } from '../domain/accounts/login-limiter.js';
import { ViewerSessionRecorder } from '../domain/analytics/session-recorder.js';
import { StoredViewers } from '../domain/analytics/stored-viewers.js';
import { StreamAnalyticsService } from '../domain/analytics/stream-analytics.service.js';
import { ViewerAnalyticsStore } from '../domain/analytics/viewer-analytics.store.js';
import type { NodeInfo } from '../domain/node-info.js';
import { MediaNodesStore } from '../domain/node-status/media-nodes.store.js';
import { loadNodeId } from '../domain/node-status/node-id.js';
import { NodeStatusService } from '../domain/node-status/node-status.service.js';
import { INGEST_LOOKUPS_PER_MINUTE, PublicInfoService } from '../domain/node-status/public-info.service.js';
import { PlaybackAccessService } from '../domain/playback-access/playback-access.service.js';
import { PlaybackPoliciesService } from '../domain/playback-policies/playback-policies.service.js';
import { PlaybackPoliciesStore } from '../domain/playback-policies/playback-policies.store.js';
import { PullSourcesService } from '../domain/pull-sources/pull-sources.service.js';
import { PullSourcesStore } from '../domain/pull-sources/pull-sources.store.js';
import { PushTargetsService } from '../domain/push-targets/push-targets.service.js';
import { PushTargetsStore } from '../domain/push-targets/push-targets.store.js';
import { GeoipLiteLocator } from '../domain/routing/geoip-locator.js';
import { LiveContentResolver } from '../domain/routing/live-content.resolver.js';
import { LiveContentStore } from '../domain/routing/live-content.store.js';
import { StoredContentResolver } from '../domain/routing/stored-content.resolver.js';
import { ViewerRoutingService } from '../domain/routing/viewer-routing.service.js';
import { VodContentResolver } from '../domain/routing/vod-content.resolver.js';
import { SealedText } from '../domain/sealed-text.js';
import { SigningKeysService } from '../domain/signing-keys/signing-keys.service.js';
import { SigningKeysStore } from '../domain/signing-keys/signing-keys.store.js';
import { SrtService } from '../domain/srt/srt.service.js';
import { SrtStore } from '../domain/srt/srt.store.js';
import { StreamKeysService } from '../domain/streams/stream-keys.service.js';
import { StreamKeysStore } from '../domain/streams/stream-keys.store.js';
import { StreamStatusStore } from '../domain/streams/stream-status.store.js';
import { StreamsService } from '../domain/streams/streams.service.js';
import { StreamsStore } from '../domain/streams/streams.store.js';
import { DeveloperTokensService } from '../domain/tokens/developer-tokens.service.js';
import { DeveloperTokensStore } from '../domain/tokens/developer-tokens.store.js';
import { EventBus } from '../events/event-bus.js';
import { EventFeed } from '../events/event-feed.js';
import { attachHubEvents } from '../events/hub-events.js';
import { PgNotifyRelay } from '../events/pg-notify-relay.js';
import { PublisherReconnects } from '../events/publisher-reconnects.js';
import { costLimitPlugin, costLimitValidation } from '../graphql/limits/cost-limit.js';
import { queryShapePlugin } from '../graphql/limits/query-shape.js';
import type { Services } from '../graphql/services.js';
import { buildApp } from '../http/app.js';
import { dashboardRoutes } from '../http/dashboard/dashboard-routes.js';
import { graphqlWsRoute } from '../http/graphql-ws/graphql-ws-route.js';
import { graphqlTiming, metricsRoutes } from '../http/metrics/metrics-route.js';
import { streamBringer } from '../http/play/bring-here.js';
import { cacheWarmer } from '../http/play/cache-warmer.js';
import { registerPlayRoutes } from '../http/play/play-routes.js';
import { playgroundRoutes } from '../http/playground/playground.js';
import { relayRoutes } from '../http/relay/relay-route.js';
import { webrtcNetwork } from '../http/webrtc/webrtc-network.js';
import { registerWebRtcRoutes } from '../http/webrtc/webrtc-routes.js';
import { DatabaseLifecycleSink } from '../ingest/lifecycle-sink.js';
import { StreamKeyPublishAuthorizer } from '../ingest/publish-authorizer.js';
import { pullAddressGuard } from '../ingest/pull-guard.js';
import { PullScheduler } from '../ingest/pull-scheduler.js';
import { RelayPull, withoutRelayed } from '../ingest/relay-pull.js';
import { DatabaseIngestConnectionSink, withSrtPassphrases } from '../ingest/srt-ingest.js';
import { openSrtPullInput } from '../ingest/srt-pull-input.js';
import { MediaTotals } from '../metrics/media-totals.js';
import { NodeMetrics } from '../metrics/metrics.js';
import { NodeLoadSampler } from '../metrics/node-load.js';
import { parseCidrList } from '../net/cidr.js';
import { pushConnector, pushDestinationResolver } from '../push/push-connector.js';
import { PushRunner } from '../push/push-runner.js';
import { relayPushTargetChanges } from '../push/push-targets-relay.js';
import { allowDashboardUploads, openObjectStorage } from '../storage/open-storage.js';
import { listenOnSocketPath } from './http-socket.js';
import { clientIpReader, NODE_OUTPUTS, nodeProfile } from './node-plane.js';
import { startRecordingPlane } from './recording-plane.js';
import { startRetentionPlane } from './retention-plane.js';
import { startVodPlane } from './vod-plane.js';

/** A running Airwave process. */
export interface RunningAirwave {
  readonly config: Config;
  readonly database: Database;
  readonly hub: Hub;
  readonly node: NodeInfo;
  /** Bound ports (differ from config when it asked for port 0). */
  readonly ports: {
    readonly http: number;
    readonly rtmp: number;
    readonly rtmps: number | undefined;
    readonly srt: number;
  };
  /** Human-facing URLs printed at start. */
  readonly urls: Readonly<Record<string, string>>;
  /** The event bus (in-process; across processes over LISTEN/NOTIFY with PostgreSQL). */
  readonly events: EventBus;
  /** The domain services (tests and benchmarks call them directly). */
  readonly services: Services;
  /** Prometheus metrics of this node, and the hooks that count errors (recorder, packagers). */
  readonly metrics: NodeMetrics;
  /** Media-plane ports backed by the database: hand `authorizer` to every ingest listener. */
  readonly ingest: {
    readonly authorizer: StreamKeyPublishAuthorizer;
    readonly lifecycle: DatabaseLifecycleSink;
    /** The pull sources this node pulls. */
    readonly pulls: PullScheduler;
  };
  /** The push targets this node pushes. */
  readonly pushes: PushRunner;
  /** WHIP/WHEP sessions, when WebRTC is enabled. */
  readonly webrtc: WebRtcService | undefined;
  close(): Promise<void>;
}

/** Version reported by public queries. */
export const VERSION = '0.1.0';

/**
 * Schedules one full garbage collection 2 s after start-up when the process exposes it (`airwave
 * start` does), of the "last resort" flavour (V8's CollectAllAvailableGarbage: it also shrinks the
 * young generation and releases freed pages). Start-up — loading modules, opening the database
 * (PGlite leaves its dead initdb WASM instance, ~250 MiB, on a new data directory) — grows the
 * young generation to its maximum (2 × --max-semi-space-size) and the old one past what the
 * service keeps, and with the memory reducer off V8 would keep both committed while idle: measured
 * on embedded PostgreSQL, the service's idle RSS fell from ~305 MiB with a plain full collection.
 */
function collectStartupGarbage(): void {
  const gc = (globalThis as { gc?: (options?: object) => unknown }).gc;
  if (gc) {
    setTimeout(() => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }), 2_000).unref();
  }
}

/** Starts every part of the service; rejects with a clear error when something cannot start. */
export async function startAirwave(config: Config): Promise<RunningAirwave> {
  const log = pino({ level: config.logLevel, base: { service: 'airwave' } });
  const embedded = embeddedDatabase(config.dataDir, config.embeddedDatabase);
  if (!config.databaseUrl && embedded.why) {
    log.info({ database: embedded.kind }, `embedded database: PGlite, since ${embedded.why}`);
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embedded: embedded.kind,
  });
  const closers: (() => Promise<void> | void)[] = [() => database.close()];
  try {
    const nodeId = config.nodeId ?? loadNodeId(config.dataDir);
    const events = new EventBus({ log });
    closers.unshift(() => events.close());
    if (database.pool) {
      const relay = new PgNotifyRelay({ pool: database.pool, bus: events, log });
      events.useTransport(relay);
      await relay.start();
    }
    const lifecycle = new DatabaseLifecycleSink({
      store: new StreamStatusStore(database.db),
      nodeId,
      log,
      liveStream: (streamId): LiveStream | undefined => hub.getByStreamId(streamId),
      events,
    });
    closers.unshift(() => lifecycle.flush());
    /** Streams relayed from their origin node, to their tenants: their origin reports them, this node does not. */
    const relayed = new Map<string, string>();
    let relaysServed = 0;
    /** The hub's clock, pinned to the origin's arrival time while a relayed unit is written. */
    const arrival = new ReplayClock();
    const hub = new Hub({
      log,
      reconnectWindowMs: config.reconnectWindowMs,
      viewerIdleMs: config.viewerIdleMs,
      lifecycle: withoutRelayed(lifecycle, relayed),
      now: arrival.now,
    });
    closers.unshift(() => hub.close());
    const totals = new MediaTotals(hub);
    const analyticsStore = new ViewerAnalyticsStore(database.db);
    const recorder = config.viewerAnalytics
      ? new ViewerSessionRecorder({ store: analyticsStore, nodeId, flushMs: config.analyticsFlushMs, log })
      : undefined;
    if (recorder) {
      hub.addOutput((stream) => ({
        close: recorder.follow(
          { streamId: stream.streamId, contentType: 'live', contentId: stream.playbackId },
          stream.viewers,
        ),
      }));
      recorder.start();
      // Runs after hub.close (closers run last-added first): the sessions it ends are written.
      closers.splice(1, 0, () => recorder.stop());
    }
    const storedViewers = recorder ? new StoredViewers(recorder, config.viewerIdleMs) : undefined;
    if (storedViewers) {
      // Right after hub.close and before the recorder stops, so the sessions it ends are written.
      closers.splice(1, 0, () => storedViewers.close());
    }
    // One object storage for everything stored (S3 when configured, else the local directory).
    const storage = await openObjectStorage(config.storage, config.storageDir);
    closers.push(() => storage.close());
    const recording = await startRecordingPlane({
      hub,
      database,
      config,
      log,
      nodeId,
      storage: storage.storage,
      bus: events,
    });
    closers.splice(1, 0, () => recording.close());
    const metrics = new NodeMetrics({
      hub,
      totals,
      isRelayed: (streamId) => relayed.has(streamId),
      relays: () => ({ pulling: relayed.size, serving: relaysServed }),
      ...(recorder ? { openSessions: () => recorder.openSessions } : {}),
      ...(database.pool ? { pool: database.pool } : {}),
      memory: {
        database: () => database.inProcessBytes(),
        tsWindow: () => tsHls.heldBytes(),
        cmafWindow: () => llHls.registry.heldBytes(),
      },
    });
    const reconnects = new PublisherReconnects(events);
    closers.unshift(() => reconnects.close());
    attachHubEvents({
      hub,
      bus: events,
      log,
      nodeId,
      egressBytes: (stream) => stream.stats.bytesOut,
      tenantOf: (streamId) => relayed.get(streamId),
    });
    const packaging = { packaging: config.packaging, packagerIdleMs: config.packagerIdleMs };
    // Finished TS segments live in files under the data directory, as nginx-rtmp keeps its
    // fragments, not in the heap: the TS window costs no memory beside the CMAF one (issue 13 §4).
    const tsHls = new TsHlsService(hub, {
      ...packaging,
      spool: new SegmentSpool(join(config.dataDir, 'spool', 'hls')),
    });
    // CMAF segments older than the newest two (every part LL-HLS lists) go to files too (ADR 0017).
    const cmafSpool = new SegmentSpool(join(config.dataDir, 'spool', 'cmaf'));
    const cmafOptions = { log, onFailure: () => metrics.packagerFailed('cmaf'), spool: cmafSpool };
    const llHls = new LlHlsService(hub, {
      ...packaging,
      packager: cmafOptions,
      ...(config.playbackCacheUrl
        ? {
            warmThroughCache: cacheWarmer(config.playbackCacheUrl, (path, err) =>
              log.warn({ err, path }, 'the playback cache did not answer a part fetched through it'),
            ),
          }
        : {}),
    });
    const dash = new DashService(hub, { ...packaging, packager: cmafOptions });
    const mp4 = new ProgressiveMp4Service(hub);
    closers.unshift(() => tsHls.close());
    closers.unshift(() => {
      llHls.registry.close();
      cmafSpool.close();
    });
    const displayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const node: NodeInfo = {
      nodeId,
      version: VERSION,
      startedAt: new Date(),
      baseUrl: config.publicUrl ?? `http://${displayHost}:${config.httpPort}`,
      ingestHost: config.publicUrl ? new URL(config.publicUrl).hostname : displayHost,
      rtmpPort: config.rtmpPort,
      rtmpsPort: config.tlsCert ? config.rtmpsPort : undefined,
      srtPort: config.srtPort,
      httpPort: config.httpPort,
      whip: config.webrtc.enabled,
    };
    const accountsStore = new AccountsStore(database.db);
    const sessionTokens = new SessionTokens(
      config.sessionSecret ?? (await accountsStore.secret('session-signing-key', generateSessionSecret())),
    );
    let authenticator: Authenticator | undefined;
    const forget = (id: string) => authenticator?.forget(id);
    const accounts = new AccountsService(accountsStore, new LoginLimiter(accountsStore), sessionTokens, {
      onRevoked: forget,
    });
    const developerTokens = new DeveloperTokensService(new DeveloperTokensStore(database.db), forget);
    authenticator = new Authenticator(sessionTokens, accounts, developerTokens);
    const tokenAuthenticator = authenticator;
    const relayKey = await accountsStore.secret('relay-signing-key', randomBytes(32).toString('base64url'));
    // VOD uploads (issue 18): object storage, multipart sessions, processing.
    const vod = await startVodPlane({
      config,
      database,
      opened: storage,
      events,
      log,
      uploadKey: await accountsStore.secret('upload-signing-key', randomBytes(32).toString('base64url')),
      baseUrl: () => currentNode.baseUrl,
      nodeId,
    });
    closers.unshift(() => vod.close());
    const liveContent = new LiveContentStore(database.db);
    const relayPull = new RelayPull({
      hub,
      nodeId,
      lookup: (playbackId) => liveContent.byPlaybackId(playbackId),
      key: relayKey,
      log,
      pinArrival: (at) => arrival.pin(at),
      relayed,
      now: () => nodeStatus.now(),
    });
    closers.unshift(() => relayPull.close());
    const sessionCookie = new SessionCookie(config.publicUrl?.startsWith('https:') ?? false);
    const streamsStore = new StreamsStore(database.db);
    const keysStore = new StreamKeysStore(database.db);
    const pullRelay = await HttpRelay.start(log);
    closers.unshift(() => pullRelay.close());
    const pullSourcesStore = new PullSourcesStore(database.db);
    const pulls = new PullScheduler({
      store: pullSourcesStore,
      hub,
      nodeId,
      allowPrivate: config.allowPrivatePullSources,
      guard: pullAddressGuard({ allowPrivate: config.allowPrivatePullSources }),
      open: pullInputs(ffmpegInputs({ relay: pullRelay, tsReader: readTransportStream, webmReader: readWebm }), {
        rtsp: config.pullRtsp,
        mergedReadMs: config.rtmpMergedReadMs,
        inProcess: { srt: openSrtPullInput },
      }),
      log,
      maxPulls: config.pullMaxSources,
      retry: { baseMs: 1000, maxMs: config.pullRetryMaxMs },
      stallMs: config.pullStallMs,
      idleMs: config.pullIdleMs,
    });
    const streams = new StreamsService({
      streams: streamsStore,
      keys: keysStore,
      allowPrivatePullSources: config.allowPrivatePullSources,
      onDeleted: (streamId, reason) => {
        pulls.forget(streamId);
        hub.stop(streamId, reason);
      },
      onPullChanged: (streamId) => pulls.changed(streamId),
    });
    const streamKeys = new StreamKeysService({ streams: streamsStore, keys: keysStore });
    // Push targets (issue 19): URIs sealed with a key kept in server_secrets, shared by every node.
    const pushTargets = new PushTargetsService({
      store: new PushTargetsStore(database.db),
      streams: streamsStore,
      sealer: SealedText.fromBase64Url(await accountsStore.secret('push-target-sealing-key', SealedText.newKey())),
      allowPrivate: config.allowPrivatePushTargets,
      onChanged: (tenantId, streamId) => pushChanges.changed(tenantId, streamId),
    });
    const pushRunner = new PushRunner({
      hub,
      targets: pushTargets,
      nodeId,
      connect: pushConnector(config.pushCaFile ? { ca: readFileSync(config.pushCaFile, 'utf8') } : {}),
      resolve: pushDestinationResolver(config.allowPrivatePushTargets),
      log: log.child({ component: 'push' }),
      retry: { baseMs: 1000, maxMs: config.pushRetryMaxMs },
      resyncMs: config.pushResyncMs,
      isRelayed: (streamId) => relayed.has(streamId),
    });
    // Changes made through another node reach this node's runner over the bus (LISTEN/NOTIFY).
    const pushChanges = relayPushTargetChanges(events, (streamId) => pushRunner.changed(streamId));
    closers.unshift(() => pushChanges.close());
    pushTargets.showLive((id) => pushRunner.live(id));
    await pushRunner.start();
    closers.unshift(() => pushRunner.close());
    let currentNode = node;
    const load = new NodeLoadSampler(hub, totals);
    const nodeStatus = new NodeStatusService(new MediaNodesStore(database.db), log, {
      intervalMs: config.heartbeatMs,
      load: () => load.sample(),
      profile: () =>
        nodeProfile(config, currentNode, config.webrtc.enabled ? [...NODE_OUTPUTS, 'webrtc'] : NODE_OUTPUTS),
    });
    const sumViewers = (list: LiveStream[]) => list.reduce((sum, stream) => sum + stream.viewers.count, 0);
    const ingestLookups = new RequestRateLimiter(INGEST_LOOKUPS_PER_MINUTE);
    const publicInfo = new PublicInfoService({
      keys: streamKeys,
      nodes: nodeStatus,
      node: () => currentNode,
      live: () => ({ streams: hub.streams().length, viewers: sumViewers(hub.streams()) }),
      limitLookups: (ip) => ingestLookups.take(`ip:${ip}`),
    });
    const signingKeys = new SigningKeysService(new SigningKeysStore(database.db));
    const playbackPolicies = new PlaybackPoliciesService({
      store: new PlaybackPoliciesStore(database.db),
      signingKeys,
      allowPrivateWebhooks: config.allowPrivateWebhooks,
    });
    const playbackAccess = new PlaybackAccessService({
      policies: playbackPolicies,
      signingKeys,
      allowPrivateWebhooks: config.allowPrivateWebhooks,
    });
    closers.unshift(relayPlaybackAccessChanges({ bus: events, policies: playbackPolicies, signingKeys }));
    const srtStore = new SrtStore(database.db);
    const recordings = recording.service(streams, vod.service);
    const clips = recording.clips(streams);
    const retention = startRetentionPlane({
      database,
      log,
      sweepSeconds: config.retentionSweepSeconds,
      streams,
      recordings,
      clips,
      vod: vod.service,
    });
    closers.unshift(() => retention.close());
    const services: Services = {
      node,
      accounts,
      developerTokens,
      sessionCookie,
      streams,
      streamKeys,
      pullSources: new PullSourcesService(pullSourcesStore),
      publicInfo,
      signingKeys,
      playbackPolicies,
      playbackAccess,
      streamAnalytics: new StreamAnalyticsService({ store: analyticsStore, streams }),
      viewerRouting: new ViewerRoutingService({
        resolvers: [
          new LiveContentResolver(liveContent),
          new VodContentResolver((id) => vod.playback.find(id)),
          new StoredContentResolver((id) => recording.stored.find(id), config.storage.kind === 's3'),
        ],
        nodes: () => nodeStatus.nodes(),
        locator: new GeoipLiteLocator(),
        trustedProxies: parseCidrList(config.trustedProxies),
        access: ({ contentId, token, viewerIp }) =>
          playbackAccess.decide({
            playbackId: contentId,
            token,
            viewerIp,
            requestUrl: 'resolveViewerEndpoint',
            protocol: 'info',
            sessionId: `resolve:${viewerIp}`,
          }),
      }),
      srt: new SrtService(srtStore, streams),
      recordings,
      chapterSettings: recording.chapterSettings,
      pushTargets,
      clips,
      vod: vod.service,
      reconnects,
      retention: retention.service,
    };
    const subscriptionAttempts = new RequestRateLimiter(config.apiRateLimitPerMinute);
    const authorizer = new StreamKeyPublishAuthorizer(streamKeys, log);
    const playbackGate = new AccessControlGate(playbackAccess, ownerPreviewCheck(tokenAuthenticator));
    const network = webrtcNetwork(config);
    const webrtc = config.webrtc.enabled
      ? new WebRtcService({ hub, authorizer, log, network, opus: new AacToOpusTranscoders(log) })
      : undefined;
    if (webrtc) {
      closers.unshift(() => webrtc.close());
    }
    const app = await buildApp({
      services,
      authenticate: requestAuthenticator(
        authenticator,
        new RequestRateLimiter(config.apiRateLimitPerMinute),
        sessionCookie,
      ),
      logLevel: config.logLevel,
      validationRules: costLimitValidation(),
      graphql: config.role === 'all',
      hooks: [graphqlTiming(metrics)],
      plugins: [
        ...(config.role === 'all' ? [costLimitPlugin(), queryShapePlugin, playgroundRoutes] : []),
        // Dashboard (issue 21): CSRF header on cookie mutations, the web console at /.
        ...(config.role === 'all' ? [csrfPlugin, dashboardRoutes(undefined, config.storage)] : []),
        metricsRoutes({ metrics, token: config.metricsToken, nodeId }),
        ...vod.routes,
        relayRoutes({
          hub,
          key: relayKey,
          onServing: (delta) => {
            relaysServed += delta;
          },
        }),
        (instance) =>
          registerPlayRoutes(instance, {
            hub,
            tsHls,
            cmaf: llHls,
            dash,
            mp4,
            get publicBaseUrl() {
              return currentNode.baseUrl;
            },
            gate: playbackGate,
            webrtc: webrtc !== undefined,
            ...(recorder ? { sessions: recorder } : {}),
            ...(storedViewers ? { storedViewers } : {}),
            storageEgress: (bytes) => totals.sentFromStorage(bytes),
            clientIp: clientIpReader(config),
            remote: relayPull,
            wake: (playbackId) => pulls.wake(playbackId),
            stored: recording.stored,
            vod: vod.playback,
          }),
        (instance) =>
          webrtc &&
          registerWebRtcRoutes(instance, {
            service: webrtc,
            gate: playbackGate,
            iceServerLinks: iceServerLinks(network.iceServers),
            bringHere: streamBringer(
              { hub, remote: relayPull, wake: (playbackId) => pulls.wake(playbackId) },
              instance.log,
            ),
            ...(recorder ? { sessions: recorder } : {}),
            clientIp: clientIpReader(config),
          }),
        ...(config.role === 'all'
          ? [
              graphqlWsRoute({
                feed: new EventFeed({
                  bus: events,
                  resolveStream: async (tenantId, id) => (await streams.get(tenantId, id)).id,
                }),
                authenticateToken: async (token) =>
                  (await tokenAuthenticator.authenticate({ headers: { authorization: `Bearer ${token}` } })).principal,
                rateLimit: (key) => subscriptionAttempts.take(key),
              }),
            ]
          : []),
      ],
    });
    closers.unshift(() => app.close());
    await app.listen({ port: config.httpPort, host: config.host });
    if (config.httpSocket) {
      const socketListener = await listenOnSocketPath(app.server, config.httpSocket);
      closers.unshift(() => socketListener.close());
    }
    const address = app.server.address();
    const httpPort = typeof address === 'object' && address ? address.port : config.httpPort;
    const base = config.publicUrl ?? `http://${displayHost}:${httpPort}`;
    currentNode = { ...node, httpPort, baseUrl: base };
    await allowDashboardUploads(storage, config.storage, new URL(base).origin, log);
    // Before any ingest listener accepts a publish: reset what a previous run left LIVE.
    await nodeStatus.start(currentNode);
    closers.unshift(() => nodeStatus.stop());
    pulls.start();
    closers.unshift(() => pulls.close());
    await recording.recover();
    const rtmp = new RtmpServer({ hub, authorizer, log, mergedReadMs: config.rtmpMergedReadMs });
    closers.unshift(() => rtmp.close());
    collectStartupGarbage();
    const rtmpPort = await rtmp.listen(config.rtmpPort, config.host);
    let rtmpsPort: number | undefined;
    if (config.tlsCert && config.tlsKey) {
      const tls = { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) };
      const rtmps = new RtmpServer({ hub, authorizer, log, tls });
      closers.unshift(() => rtmps.close());
      rtmpsPort = await rtmps.listen(config.rtmpsPort, config.host);
    }
    const srtConnections = new DatabaseIngestConnectionSink({
      store: srtStore,
      nodeId,
      log,
      events,
      tenantOf: (streamId) => srtStore.tenantOf(streamId),
    });
    closers.unshift(() => srtConnections.flush());
    const srt = new SrtServer({
      hub,
      authorizer: withSrtPassphrases(authorizer, srtStore),
      connections: srtConnections,
      log,
      latencyMs: config.srtLatencyMs,
      ...(config.srtPassphrase ? { passphrase: config.srtPassphrase } : {}),
    });
    closers.unshift(() => srt.close());
    const srtPort = await srt.listen(config.srtPort, config.host);
    currentNode = { ...currentNode, rtmpPort, rtmpsPort, srtPort };
    if (nodeStatus.heartbeats) {
      // Registers the services now that every listener is bound.
      await nodeStatus.beat(nodeId);
    }
    const controlPlane = {
      graphql: `${base}/graphql`,
      playground: `${base}/graphql/playground`,
      subscriptions: `${base.replace(/^http/, 'ws')}/graphql/ws`,
    };
    const urls = {
      ...(config.role === 'all' ? controlPlane : {}),
      rtmp: `rtmp://${node.ingestHost}:${rtmpPort}/live/<streamKey>`,
      ...(rtmpsPort ? { rtmps: `rtmps://${node.ingestHost}:${rtmpsPort}/live/<streamKey>` } : {}),
      srt: `srt://${node.ingestHost}:${srtPort}?streamid=<streamKey>`,
      playback: `${base}/play/<playbackId>`,
      metrics: `${base}/metrics`,
    };
    return {
      config,
      database,
      hub,
      node: currentNode,
      ports: { http: httpPort, rtmp: rtmpPort, rtmps: rtmpsPort, srt: srtPort },
      urls,
      events,
      services,
      metrics,
      ingest: { authorizer, lifecycle, pulls },
      pushes: pushRunner,
      webrtc,
      close: async () => {
        for (const close of closers) {
          try {
            await close();
          } catch (error) {
            log.error({ err: error }, 'error while shutting down');
          }
        }
      },
    };
  } catch (error) {
    for (const close of closers) {
      await Promise.resolve(close()).catch(() => undefined);
    }
    throw error;
  }
}
