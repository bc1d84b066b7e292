/**
 * The domain services resolvers may call. `main/` builds them; resolvers never touch SQL.
 * Each engineer adding a domain adds its service here.
 */
import type { SessionCookie } from '../auth/session-cookie.js';
import type { AccountsService } from '../domain/accounts/accounts.service.js';
import type { StreamAnalyticsService } from '../domain/analytics/stream-analytics.service.js';
import type { ClipsService } from '../domain/clips/clips.service.js';
import type { NodeInfo } from '../domain/node-info.js';
import type { PublicInfoService } from '../domain/node-status/public-info.service.js';
import type { PlaybackAccessService } from '../domain/playback-access/playback-access.service.js';
import type { PlaybackPoliciesService } from '../domain/playback-policies/playback-policies.service.js';
import type { PullSourcesService } from '../domain/pull-sources/pull-sources.service.js';
import type { PushTargetsService } from '../domain/push-targets/push-targets.service.js';
import type { ChapterSettings } from '../domain/recordings/chapter-settings.js';
import type { RecordingsService } from '../domain/recordings/recordings.service.js';
import type { RetentionService } from '../domain/retention/retention.service.js';
import type { ViewerRoutingService } from '../domain/routing/viewer-routing.service.js';
import type { SigningKeysService } from '../domain/signing-keys/signing-keys.service.js';
import type { SrtService } from '../domain/srt/srt.service.js';
import type { StreamKeysService } from '../domain/streams/stream-keys.service.js';
import type { StreamsService } from '../domain/streams/streams.service.js';
import type { DeveloperTokensService } from '../domain/tokens/developer-tokens.service.js';
import type { VodUploadsService } from '../domain/vod/vod-uploads.service.js';
import type { PublisherReconnects } from '../events/publisher-reconnects.js';

/** Every domain service available to resolvers. */
export interface Services {
  readonly node: NodeInfo;
  readonly accounts: AccountsService;
  readonly developerTokens: DeveloperTokensService;
  /** Sets and clears the session cookie (register, login, logout). */
  readonly sessionCookie: SessionCookie;
  readonly streams: StreamsService;
  readonly streamKeys: StreamKeysService;
  /** Pull-source events of PULL streams. */
  readonly pullSources: PullSourcesService;
  /** Facts behind the public queries (ingest endpoint, instances, network status). */
  readonly publicInfo: PublicInfoService;
  /** ES256 playback signing keys. */
  readonly signingKeys: SigningKeysService;
  /** Playback policies of streams. */
  readonly playbackPolicies: PlaybackPoliciesService;
  /** The playback gate's decisions (testPlaybackAccess). */
  readonly playbackAccess: PlaybackAccessService;
  /** Daily playback analytics of streams. */
  readonly streamAnalytics: StreamAnalyticsService;
  /** Where viewers play (resolveViewerEndpoint). */
  readonly viewerRouting: ViewerRoutingService;
  /** SRT passphrases and connection statistics of streams. */
  readonly srt: SrtService;
  /** DVR recordings, chapters, clips and storage artifacts. */
  readonly recordings: RecordingsService;
  /** Streams' own chapter settings (dvrChapterMode, dvrChapterIntervalSeconds). */
  readonly chapterSettings: ChapterSettings;
  /** Push targets (restreaming) of streams. */
  readonly pushTargets: PushTargetsService;
  /** GOP-aligned clips of recordings. */
  readonly clips: ClipsService;
  /** VOD uploads and assets (issue 18). */
  readonly vod: VodUploadsService;
  /** Publisher drops in each live stream's current session (absent: reported as null). */
  readonly reconnects?: Pick<PublisherReconnects, 'count'>;
  /** Retention of recordings, clips and VOD (tenant defaults, stream and asset overrides). */
  readonly retention: RetentionService;
}
