/**
 * The web dashboard (packages/dashboard's Vite build) at `/`: hashed files under `/_app/` served
 * immutable (gzip when the client accepts it), `index.html` never cached, and an SPA fallback that
 * answers browser navigations to unknown paths with `index.html` — never the API, media, metrics
 * or playground prefixes, which keep their own 404s.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StorageBackendConfig } from '../../config/storage-config.js';
import { dashboardCsp } from './dashboard-csp.js';

/** Path prefixes that are never the dashboard (their unknown paths stay 404). */
export const RESERVED_PREFIXES = [
  '/graphql',
  '/play',
  '/webrtc',
  '/whip',
  '/whep',
  '/metrics',
  '/assets',
  '/relay',
  '/mcp',
  '/.well-known',
  '/_app',
] as const;

/** Content security policy of the dashboard with local storage (see dashboard-csp.ts). */
export const DASHBOARD_CSP = dashboardCsp();

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

interface File {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly type: string;
}

/** The build folder of @airwave/dashboard (`dist/`), found through the workspace. */
export function defaultDashboardDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@airwave/dashboard/package.json')), 'dist');
}

/** Reads every file under `dir/_app` once, gzipping the compressible ones. */
function loadAssets(dir: string): Map<string, File> {
  const files = new Map<string, File>();
  const appDir = join(dir, '_app');
  if (!existsSync(appDir)) {
    return files;
  }
  for (const name of readdirSync(appDir)) {
    const body = readFileSync(join(appDir, name));
    const type = TYPES[extname(name)] ?? 'application/octet-stream';
    const compressible = /javascript|css|svg|json/.test(type);
    files.set(name, { body, type, gzip: compressible ? gzipSync(body, { level: 9 }) : undefined });
  }
  return files;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Airwave</title></head>
<body><main><h1>Airwave</h1><p>The dashboard is not built. Run <code>npm run build</code> (or <code>npm start</code>,
which builds it) and restart. The API is at <a href="/graphql/playground">/graphql/playground</a>.</p></main></body></html>`;

/** True when `request` is a browser navigation (GET/HEAD asking for HTML) outside the reserved prefixes. */
function isNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return false;
  }
  const path = request.url.split('?')[0] ?? '/';
  if (RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return false;
  }
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Registers `/`, `/_app/*` and the SPA fallback; `dir` is the dashboard's `dist/` (default: the
 * workspace build); `storage` widens the CSP's `connect-src` to the S3 origin.
 */
export function dashboardRoutes(
  dir: string = defaultDashboardDir(),
  storage: StorageBackendConfig = { kind: 'local' },
): (app: FastifyInstance) => void {
  const csp = dashboardCsp(storage);
  return (app) => {
    const indexPath = join(dir, 'index.html');
    const index = existsSync(indexPath) ? readFileSync(indexPath) : Buffer.from(NOT_BUILT, 'utf8');
    const assets = loadAssets(dir);
    const sendIndex = (reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', csp)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .send(index);
    app.get('/', async (_request, reply) => sendIndex(reply));
    app.get<{ Params: { file: string } }>('/_app/:file', async (request, reply) => {
      const file = assets.get(request.params.file);
      if (!file) {
        return reply.status(404).type('text/plain; charset=utf-8').send('no such dashboard file');
      }
      void reply
        .type(file.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('vary', 'accept-encoding');
      if (file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        return reply.header('content-encoding', 'gzip').send(file.gzip);
      }
      return reply.send(file.body);
    });
    app.setNotFoundHandler(async (request, reply) => {
      if (isNavigation(request)) {
        return sendIndex(reply);
      }
      return reply
        .status(404)
        .send({ message: `Route ${request.method}:${request.url} not found`, error: 'Not Found', statusCode: 404 });
    });
  };
}
