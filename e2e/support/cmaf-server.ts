/**
 * Support for the CMAF e2e tests: a bare node:http server answering `/play/<id>/cmaf/<path>` from
 * the LL-HLS and DASH services (as the server's routes do, with a `jwt` uriQuery and CORS).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import type { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import type { PlayRequest, PlayResponse } from '@airwave/media/protocols/shared/http-types';

/** The query every listed URI must carry. */
export const TOKEN = 'jwt=e2e-token';

/** A running test server. */
export interface Served {
  readonly server: Server;
  readonly base: string;
  /** Paths requested without the token (must stay empty). */
  readonly untokened: string[];
}

/** Serves `/play/<id>/cmaf/<path>` from the two services, like the server's routes do. */
export async function serveCmaf(llhls: LlHlsService, dash: DashService): Promise<Served> {
  const untokened: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/play\/([^/]+)\/cmaf\/(.+)$/.exec(url.pathname);
    if (!match?.[1] || !match[2]) {
      res.writeHead(404).end();
      return;
    }
    if (url.searchParams.get('jwt') !== 'e2e-token') {
      untokened.push(url.pathname);
    }
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request: PlayRequest = {
      playbackId: match[1],
      path: match[2],
      query: Object.fromEntries(url.searchParams),
      sessionId: req.socket.remoteAddress ?? 'probe',
      signal: controller.signal,
      uriQuery: TOKEN,
    };
    const service = DashService.owns(request.path) ? dash : llhls;
    service.handle(request).then(
      (response: PlayResponse) => {
        res.writeHead(response.status, { ...response.headers, 'access-control-allow-origin': '*' });
        res.end(typeof response.body === 'string' || response.body instanceof Uint8Array ? response.body : '');
      },
      (error: unknown) => {
        res.writeHead(500).end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}/play`, untokened };
}
