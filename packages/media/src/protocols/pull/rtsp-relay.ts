/**
 * The guarded RTSP relay in front of an ffmpeg child reading RTSP/RTSPS (RFC 2326) with TCP
 * interleaved transport: ffmpeg connects to this relay on loopback; the relay connects to the
 * guard-checked address of the source (TLS with the host name for SNI and certificate checks for
 * RTSPS) and passes bytes both ways. A redirect (3xx) is not passed to ffmpeg — it would dial the
 * new host unchecked — but reported, so the next attempt dials it through the guard.
 */
import { createServer, isIP, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Logger } from '../../ports.js';
import { RtspScanner, rtspHeader, rtspStatus } from './rtsp-scanner.js';

/** Where the relay connects. */
export interface RtspRelayTarget {
  readonly address: string;
  readonly port: number;
  /** The host name (for TLS SNI and certificate checks). */
  readonly host: string;
  readonly tls: boolean;
}

/** What the relay reports. */
export interface RtspRelayHooks {
  /** The source answered with a redirect to `location`. */
  redirected(location: string): void;
  /** The relay failed (upstream connect, TLS, protocol); the attempt should end. */
  failed(message: string): void;
}

/** A listening relay for one attempt. */
export interface RtspRelay {
  readonly port: number;
  close(): void;
}

/** Starts a relay on 127.0.0.1 for one connection to `target`. */
export async function startRtspRelay(target: RtspRelayTarget, hooks: RtspRelayHooks, log: Logger): Promise<RtspRelay> {
  const sockets = new Set<Socket>();
  let accepted = false;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    if (accepted) {
      client.destroy();
      return;
    }
    accepted = true;
    server.close();
    relay(client, target, hooks, log, sockets);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close() {
      server.close();
      for (const socket of sockets) {
        socket.destroy();
      }
    },
  };
}

function relay(
  client: Socket,
  target: RtspRelayTarget,
  hooks: RtspRelayHooks,
  log: Logger,
  sockets: Set<Socket>,
): void {
  const upstream = target.tls
    ? tlsConnect({
        host: target.address,
        port: target.port,
        ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
      })
    : tcpConnect({ host: target.address, port: target.port });
  sockets.add(upstream);
  upstream.setNoDelay(true);
  client.setNoDelay(true);
  const end = (message?: string): void => {
    if (message) {
      hooks.failed(message);
    }
    client.destroy();
    upstream.destroy();
  };
  upstream.on('error', (error: NodeJS.ErrnoException) => end(`RTSP connection failed: ${error.code ?? error.message}`));
  upstream.on('close', () => client.end());
  client.on('close', () => upstream.destroy());
  client.pipe(upstream);
  const isRedirect = (head: string): boolean => {
    const status = rtspStatus(head);
    return status !== undefined && status >= 300 && status < 400;
  };
  const scanner = new RtspScanner(isRedirect);
  upstream.on('data', (chunk: Buffer) => {
    try {
      const scan = scanner.push(chunk);
      if (scan.forward.byteLength > 0) {
        client.write(scan.forward);
      }
      if (scan.stoppedAt !== undefined) {
        const location = rtspHeader(scan.stoppedAt, 'location');
        log.info({ status: rtspStatus(scan.stoppedAt) }, 'RTSP source redirected');
        if (location) {
          hooks.redirected(location);
        }
        end(location ? undefined : `RTSP redirect ${rtspStatus(scan.stoppedAt)} without a Location`);
      }
    } catch (error) {
      end(`bad RTSP data from the source: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}
