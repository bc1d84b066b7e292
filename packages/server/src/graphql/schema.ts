/**
 * Merges every schema module into one SDL string and one resolver map.
 */
import type { IResolvers } from 'mercurius';
import type { GraphQLModule } from './module.js';
import { accountsModule } from './modules/accounts.js';
import { analyticsModule } from './modules/analytics.js';
import { baseModule } from './modules/base.js';
import { clipsModule } from './modules/clips.js';
import { developerTokensModule } from './modules/developer-tokens.js';
import { playbackAccessModule } from './modules/playback-access.js';
import { publicModule } from './modules/public.js';
import { pullSourcesModule } from './modules/pull-sources.js';
import { pushTargetsModule } from './modules/push-targets.js';
import { recordingsModule } from './modules/recordings.js';
import { retentionModule } from './modules/retention.js';
import { srtModule } from './modules/srt.js';
import { streamKeysModule } from './modules/stream-keys.js';
import { streamsModule } from './modules/streams.js';
import { subscriptionsModule } from './modules/subscriptions.js';
import { viewerRoutingModule } from './modules/viewer-routing.js';
import { vodModule } from './modules/vod.js';
import { vodPolicyModule } from './modules/vod-policy.js';
import { guardTextArguments } from './text-arguments.js';

/** Every module of the API, in order. Add new modules here. */
export const modules: readonly GraphQLModule[] = [
  baseModule,
  accountsModule,
  developerTokensModule,
  streamsModule,
  pullSourcesModule,
  streamKeysModule,
  playbackAccessModule,
  publicModule,
  subscriptionsModule,
  analyticsModule,
  viewerRoutingModule,
  srtModule,
  recordingsModule,
  pushTargetsModule,
  clipsModule,
  vodModule,
  retentionModule,
  vodPolicyModule,
];

/** The full SDL. */
export function buildTypeDefs(list: readonly GraphQLModule[] = modules): string {
  return list.map((module) => module.typeDefs).join('\n');
}

/** The merged resolvers (type by type, field by field); string arguments checked first (text-arguments). */
export function buildResolvers(list: readonly GraphQLModule[] = modules): IResolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const module of list) {
    for (const [type, fields] of Object.entries(module.resolvers)) {
      merged[type] = { ...(merged[type] ?? {}), ...(fields as Record<string, unknown>) };
    }
  }
  return guardTextArguments(merged as IResolvers);
}
