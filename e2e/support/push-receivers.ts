/**
 * Receiving platforms for the push-target tests, all real: nginx with libnginx-mod-rtmp (one
 * process, HLS written per stream name), a TLS front made by the test (node:tls with a throwaway
 * self-signed certificate from openssl) that terminates RTMPS and forwards to nginx-rtmp, and
 * srt-live-transmit listening for an SRT caller and writing what it gets to a file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { hasCommand, spawnTracked, type Tracked, waitFor } from './processes.js';

const NGINX = '/usr/sbin/nginx';
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

/** Why nginx-rtmp tests skip, or false. */
export const nginxRtmpMissing: string | false =
  existsSync(NGINX) && existsSync(RTMP_MODULE) ? false : 'nginx with libnginx-mod-rtmp is not installed';
/** Why SRT receiver tests skip, or false. */
export const srtReceiverMissing: string | false = hasCommand('srt-live-transmit')
  ? false
  : 'srt-live-transmit is not installed (apt-get install srt-tools)';

/** A free TCP port on 127.0.0.1. */
export async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** A running nginx-rtmp receiver. */
export interface NginxRtmpReceiver {
  readonly port: number;
  readonly dir: string;
  /** rtmp:// URL publishing to stream `name` of application `live`. */
  url(name: string): string;
  /** The HLS playlist nginx writes for `name`. */
  playlist(name: string): string;
  /**
   * A `concat:` input of every fragment the playlist of `name` lists (nginx-rtmp never ends its
   * playlists, so ffprobe would wait on the playlist itself as on a live one).
   */
  fragments(name: string): string;
  /** Kills nginx (SIGKILL) and answers once it is gone. */
  kill(): Promise<void>;
  /** Stops nginx with SIGSTOP: its connections stay open but nothing is read (a stalled platform). */
  pause(): void;
  /** Lets a paused nginx run again (SIGCONT). */
  resume(): void;
  /** How many times a publisher started publishing `name` (nginx logs each `publish: name='…'`). */
  publishes(name: string): number;
  /** Starts nginx again on the same port and directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts nginx-rtmp on a free port with HLS (1 s fragments, a 120 s playlist) under a temporary directory. */
export async function startNginxRtmp(): Promise<NginxRtmpReceiver> {
  const port = await freeTcpPort();
  const dir = mkdtempSync(join(tmpdir(), 'airwave-push-nginx-'));
  mkdirSync(join(dir, 'hls'));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `load_module ${RTMP_MODULE};
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 256; }
rtmp {
  server {
    listen 127.0.0.1:${port};
    chunk_size 4096;
    application live {
      live on;
      record off;
      hls on;
      hls_path ${dir}/hls;
      hls_fragment 1s;
      hls_playlist_length 120s;
      hls_cleanup off;
    }
  }
}
`,
  );
  let child: Tracked | undefined;
  const start = async () => {
    child = spawnTracked(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')]);
    await waitFor(
      'nginx-rtmp listening',
      () =>
        new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        }),
      10_000,
    );
  };
  await start();
  return {
    port,
    dir,
    url: (name) => `rtmp://127.0.0.1:${port}/live/${name}`,
    playlist: (name) => join(dir, 'hls', `${name}.m3u8`),
    fragments: (name) => {
      const listed = readFileSync(join(dir, 'hls', `${name}.m3u8`), 'utf8')
        .split('\n')
        .filter((line) => line.endsWith('.ts'));
      return `concat:${listed.map((fragment) => join(dir, 'hls', fragment)).join('|')}`;
    },
    async kill() {
      await child?.stop(0);
    },
    pause: () => child?.child.kill('SIGSTOP'),
    resume: () => child?.child.kill('SIGCONT'),
    publishes: (name) =>
      readFileSync(join(dir, 'error.log'), 'utf8')
        .split('\n')
        .filter((line) => line.includes(` publish: name='${name}'`)).length,
    restart: start,
    async stop() {
      child?.child.kill('SIGCONT');
      await child?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TLS front: rtmps:// in, plain RTMP out to a local port. */
export interface TlsFront {
  readonly port: number;
  /** PEM of the self-signed certificate (trust it with AIRWAVE_PUSH_CA_FILE). */
  readonly certFile: string;
  /** Connections accepted. */
  readonly accepted: number;
  stop(): Promise<void>;
}

/** Terminates TLS on a free port (certificate for 127.0.0.1 and localhost) and forwards to 127.0.0.1:`backendPort`. */
export async function startTlsFront(backendPort: number): Promise<TlsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-push-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: TlsServer = createTlsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (tls) => {
    accepted++;
    const backend = connect(backendPort, '127.0.0.1');
    sockets.add(tls);
    sockets.add(backend);
    tls.pipe(backend).pipe(tls);
    const close = () => {
      tls.destroy();
      backend.destroy();
    };
    tls.on('error', close).on('close', close);
    backend.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    certFile,
    get accepted() {
      return accepted;
    },
    async stop() {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise((resolve) => (server as Server).close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** srt-live-transmit listening on a UDP port and writing what it receives to a file. */
export interface SrtReceiver {
  readonly port: number;
  readonly file: string;
  readonly process: Tracked;
  stop(): Promise<void>;
}

/** Starts `srt-live-transmit srt://:port?mode=listener[&passphrase=…] file://…`. */
export async function startSrtReceiver(passphrase?: string): Promise<SrtReceiver> {
  const port = await freeTcpPort();
  const dir = mkdtempSync(join(tmpdir(), 'airwave-push-srt-'));
  const file = join(dir, 'received.ts');
  const query = new URLSearchParams({ mode: 'listener', ...(passphrase ? { passphrase } : {}) });
  const process = spawnTracked('srt-live-transmit', ['-q', `srt://127.0.0.1:${port}?${query}`, 'file://con']);
  const out = spawnFileSink(process, file);
  return {
    port,
    file,
    process,
    async stop() {
      await process.stop();
      out();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Copies the child's stdout bytes into `file`; answers a function that stops copying. */
function spawnFileSink(child: Tracked, file: string): () => void {
  writeFileSync(file, '');
  const onData = (chunk: Buffer) => writeFileSync(file, chunk, { flag: 'a' });
  child.child.stdout?.on('data', onData);
  return () => child.child.stdout?.off('data', onData);
}
