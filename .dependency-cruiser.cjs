/** Layering rules of DESIGN.md §3, enforced by `npm run layers` (part of `npm test`). */
const media = '^packages/media/src/';
const server = '^packages/server/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular imports hide layering mistakes.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'media-never-imports-server',
      severity: 'error',
      from: { path: '^packages/media/' },
      to: { path: '^packages/server/|@airwave/server' },
    },
    {
      name: 'media-no-db-graphql-web',
      severity: 'error',
      comment: 'The media package has no database, GraphQL or web framework.',
      from: { path: '^packages/media/' },
      to: { path: 'node_modules/(fastify|mercurius|graphql|pg|@electric-sql|drizzle-orm)' },
    },
    {
      name: 'bits-import-nothing',
      severity: 'error',
      from: { path: `${media}bits/` },
      to: { path: `${media}(?!bits/|errors\\.ts)` },
    },
    {
      name: 'codecs-import-only-bits',
      severity: 'error',
      from: { path: `${media}codecs/` },
      to: { path: `${media}(?!bits/|codecs/|testing/|errors\\.ts)` },
    },
    {
      name: 'formats-import-codecs-stream',
      severity: 'error',
      from: { path: `${media}formats/` },
      to: { path: `${media}(?!bits/|codecs/|formats/|stream/|testing/|errors\\.ts)` },
    },
    {
      name: 'stream-imports-nothing',
      severity: 'error',
      from: { path: `${media}stream/` },
      to: { path: `${media}(?!stream/|errors\\.ts)` },
    },
    {
      name: 'hub-imports-stream',
      severity: 'error',
      from: { path: `${media}hub/` },
      to: { path: `${media}(?!hub/|stream/|testing/|errors\\.ts|ports\\.ts)` },
    },
    {
      name: 'protocol-never-imports-another-protocol',
      severity: 'error',
      from: { path: `${media}protocols/([^/]+)/` },
      to: { path: `${media}protocols/`, pathNot: [`${media}protocols/$1/`, `${media}protocols/shared/`] },
    },
    {
      name: 'testing-only-from-tests',
      severity: 'error',
      comment: 'Test helpers (fuzz runner, ffmpeg fixtures) are for *.test.ts and *.fuzz.ts files only.',
      from: { path: media, pathNot: [`${media}testing/`, '\\.(test|fuzz)\\.ts$'] },
      to: { path: `${media}testing/` },
    },
    {
      name: 'domain-never-imports-graphql-or-http',
      severity: 'error',
      from: { path: `${server}domain/` },
      to: { path: `${server}(graphql|http|main)/` },
    },
    {
      name: 'resolvers-never-write-sql',
      severity: 'error',
      comment: 'Resolvers call services; only stores (and db/) touch SQL.',
      from: { path: `${server}graphql/` },
      to: { path: [`${server}db/`, '\\.store\\.ts$', 'node_modules/(drizzle-orm|pg|@electric-sql)'] },
    },
    {
      name: 'only-main-wires',
      severity: 'error',
      comment: 'main/ is the composition root; nothing imports it but test support.',
      from: { path: server, pathNot: [`${server}main/`, `${server}testing/`, '\\.test\\.ts$'] },
      to: { path: `${server}main/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'node', 'default'], exportsFields: ['exports'] },
  },
};
