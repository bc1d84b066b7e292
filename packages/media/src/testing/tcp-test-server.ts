/** Test-only TCP servers of sources: listen on 127.0.0.1 and an ephemeral port, drop or close every connection. */
import type { Server, Socket } from 'node:net';

/** A listening test server and its connections. */
export interface ListeningTestServer {
  readonly port: number;
  /** Closes every connection (the source "dies") but keeps listening. */
  dropConnections(): void;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 and an ephemeral port, tracking its connections. */
export async function listenForTest(server: Server): Promise<ListeningTestServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const dropConnections = (): void => {
    for (const socket of sockets) {
      socket.destroy();
    }
  };
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    dropConnections,
    close() {
      dropConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
