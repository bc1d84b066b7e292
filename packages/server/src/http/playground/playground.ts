/**
 * GraphiQL at GET /graphql/playground, working offline: the page loads React, ReactDOM and
 * GraphiQL from their npm packages' UMD builds, served under /graphql/playground/assets/.
 * Requests go to /graphql with the browser's session cookie and the CSRF header cookie mutations
 * need (auth/csrf.ts); the headers tab can add
 * `Authorization: Bearer <token>`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

function packageFile(pkg: string, file: string, type: string): Asset {
  return { body: readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file)), type };
}

const INIT = `'use strict';
(function () {
  var fetcher = GraphiQL.createFetcher({
    url: new URL('/graphql', window.location.href).toString(),
    headers: { 'x-airwave-csrf': '1' },
  });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultEditorToolsVisibility: true,
      shouldPersistHeaders: true,
      defaultQuery:
        '# Register (use your own email and password) or log in; the session cookie then signs in\\n' +
        '# every request from this page.\\n' +
        '# With a token instead, add {"Authorization": "Bearer <token>"} in the Headers tab.\\n' +
        'mutation Register {\\n  register(input: {email: "me@example.com", password: "change-me-now", name: "Me"}) {\\n' +
        '    __typename\\n    ... on AuthPayload { token expiresAt user { id email } }\\n' +
        '    ... on ValidationError { message field }\\n  }\\n}\\n',
    }),
  );
})();
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Airwave GraphQL playground</title>
<link rel="stylesheet" href="/graphql/playground/assets/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading the playground…</div>
<script src="/graphql/playground/assets/react.production.min.js"></script>
<script src="/graphql/playground/assets/react-dom.production.min.js"></script>
<script src="/graphql/playground/assets/graphiql.min.js"></script>
<script src="/graphql/playground/assets/init.js"></script>
</body>
</html>
`;

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
].join('; ');

/** Registers the playground page and its assets. */
export function playgroundRoutes(app: FastifyInstance): void {
  const assets = new Map<string, Asset>([
    ['react.production.min.js', packageFile('react', 'umd/react.production.min.js', 'text/javascript')],
    ['react-dom.production.min.js', packageFile('react-dom', 'umd/react-dom.production.min.js', 'text/javascript')],
    ['graphiql.min.js', packageFile('graphiql', 'graphiql.min.js', 'text/javascript')],
    ['graphiql.min.css', packageFile('graphiql', 'graphiql.min.css', 'text/css')],
    ['init.js', { body: Buffer.from(INIT, 'utf8'), type: 'text/javascript' }],
  ]);
  app.get('/graphql/playground', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', CSP).send(PAGE),
  );
  app.get<{ Params: { file: string } }>('/graphql/playground/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) {
      return reply.status(404).type('text/plain; charset=utf-8').send('no such playground asset');
    }
    return reply
      .type(`${asset.type}; charset=utf-8`)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  });
}
