/**
 * GraphQL Code Generator config (docs/adr/0004-graphql-codegen.md): resolver types for the
 * server and the dashboard's typed documents (client preset, documents sent as strings), from the
 * schema `scripts/print-schema.ts` prints. Run `npm run codegen`.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const generated = 'packages/server/src/graphql/generated';

/** Resolver types for packages/server, with domain objects as the parents of their GraphQL types. */
const config: CodegenConfig = {
  schema: `${generated}/schema.graphql`,
  generates: {
    [`${generated}/resolvers-types.ts`]: {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        contextType: '../context.js#GraphQLContext',
        useTypeImports: true,
        enumsAsTypes: true,
        immutableTypes: true,
        useIndexSignature: false,
        resolversNonOptionalTypename: { unionMember: true },
        scalars: {
          ID: { input: 'string', output: 'string' },
          Time: { input: 'string', output: 'string' },
          JSON: { input: 'unknown', output: 'unknown' },
        },
        mapperTypeSuffix: 'Model',
        mappers: {
          AuthPayload: '../../domain/accounts/accounts.service.js#AuthPayload',
          User: '../../domain/accounts/accounts.service.js#UserView',
          DeveloperToken: '../../domain/tokens/developer-tokens.service.js#DeveloperTokenView',
          Stream: '../../domain/streams/stream.js#StreamRecord',
          StreamKey: '../../domain/streams/stream.js#StreamKeyRecord',
          PushTarget: '../../domain/push-targets/push-target.js#PushTargetRecord',
          SigningKey: '../../domain/signing-keys/signing-keys.service.js#SigningKeyView',
          ServiceInstance: '../../domain/node-status/public-info.service.js#ServiceInstanceView',
          NetworkStatus: '../../domain/node-status/public-info.service.js#NetworkStatusView',
          StreamingUsage: '../modules/analytics.js#AnalyticsGroup',
          StreamMetrics: '../../domain/srt/srt.js#StreamMetricsParent',
          Clip: '../modules/media-parents.js#ClipParent',
          DVRRequest: '../modules/media-parents.js#DvrRequestParent',
          VodAsset: '../modules/vod-parent.js#VodAssetParent',
        },
      },
    },
    // Dashboard block (issue 21): typed operations of packages/dashboard, sent as plain strings.
    'packages/dashboard/src/generated/': {
      documents: ['packages/dashboard/src/**/*.{ts,tsx}', '!packages/dashboard/src/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { ID: 'string', Time: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
