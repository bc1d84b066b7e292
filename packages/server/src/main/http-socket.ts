/**
 * The HTTP API on a Unix domain socket as well (AIRWAVE_HTTP_SOCKET, ADR 0088): a cache on the same
 * host (deploy/nginx-playback-cache.conf, `server unix:…`) reaches Airwave without the loopback
 * TCP stack, which on a burst of a thousand held LL-HLS blocking reloads is most of the cost of
 * answering them. Connections accepted on the path are handed to the app's HTTP server, so every
 * route, timeout and keep-alive setting applies to them as to TCP connections.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

/** The address a connection on the Unix socket counts as (its peer is a process on this host). */
export const SOCKET_PEER_ADDRESS = '127.0.0.1';

/** Connections accepted on a Unix socket path (they have no remote address of their own). */
const accepted = new WeakSet<Socket>();

/**
 * The peer address of an HTTP connection: its remote address, or SOCKET_PEER_ADDRESS for one
 * accepted on the Unix socket, so AIRWAVE_TRUSTED_PROXIES listing 127.0.0.1 trusts a local
 * cache's X-Forwarded-For on either.
 */
export function peerAddress(socket: Socket): string | undefined {
  return socket.remoteAddress ?? (accepted.has(socket) ? SOCKET_PEER_ADDRESS : undefined);
}

/** A Unix socket path's listener; `close` stops accepting and removes the path (open connections stay with the HTTP server). */
export interface SocketListener {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listens on `path` and hands each connection to `http` (a socket file left by an earlier run is
 * replaced; any other file there is an error). The path gets the process umask's permissions:
 * whoever can connect to it is a local client of the HTTP API.
 */
export async function listenOnSocketPath(http: HttpServer, path: string): Promise<SocketListener> {
  removeStaleSocket(path);
  const server: Server = createServer((socket) => {
    accepted.add(socket);
    http.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    path,
    // Stops accepting and unlinks the path at once; the connections belong to `http` and end with it.
    close: async () => {
      server.close();
    },
  };
}

function removeStaleSocket(path: string): void {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return;
  }
  if (!isSocket) {
    throw new Error(`AIRWAVE_HTTP_SOCKET: ${path} exists and is not a socket`);
  }
  unlinkSync(path);
}
