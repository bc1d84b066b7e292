/**
 * The least a Node HTTP/1.1 server can do to serve a file (RFC 9112, keep-alive): node:http with
 * every file of one directory held in memory and sent with Content-Length, no routing, no
 * authorization, no logging. The fan-out section's burst floor measures it beside Airwave and
 * nginx: what Node's runtime costs on this machine before any product code runs.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { announceReady, startReadyChild } from './child-process.js';

/** A running bare server: its process and port. */
export interface BareHttpServer {
  readonly child: ChildProcess;
  readonly port: number;
}

/** Starts the bare server in a child process serving the files of `dir` at `/<name>`. */
export async function startBareHttpServer(dir: string): Promise<BareHttpServer> {
  const { child, ready } = await startReadyChild<{ port: number }>(import.meta.url, { AIRWAVE_BENCH_BARE_HTTP: dir });
  return { child, port: ready.port };
}

function serve(dir: string): void {
  const files = new Map(readdirSync(dir).map((name) => [`/${name}`, readFileSync(`${dir}/${name}`)]));
  const server = createServer((request, response) => {
    const body = files.get(request.url ?? '');
    if (!body) {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    response.end(body);
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    announceReady({ port: typeof address === 'object' && address ? address.port : 0 }, async () => {
      server.closeAllConnections();
      server.close();
    });
  });
}

if (process.env.AIRWAVE_BENCH_BARE_HTTP) {
  serve(process.env.AIRWAVE_BENCH_BARE_HTTP);
}
