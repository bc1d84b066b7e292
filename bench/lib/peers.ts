/**
 * The media peers of the benchmark, each started as a private child process on free ports:
 * nginx with libnginx-mod-rtmp (HLS + DASH, config in bench/peers/nginx-rtmp.conf) and
 * Node-Media-Server 4.4.3 (installed from npm into bench/.work/nms at bench time, RTMP/FLV only);
 * and nginx as a static file server (bench/peers/nginx-static.conf) for the fan-out burst floor.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild, waitForPort } from './child-process.js';
import { WORK_DIR } from './media-file.js';

const PEERS_DIR = fileURLToPath(new URL('../peers/', import.meta.url));
const NGINX = '/usr/sbin/nginx';
const NGINX_RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
/** The Node-Media-Server version compared against. */
export const NMS_VERSION = '4.4.3';

/** A running media server: its root PID (CPU is summed over its process tree) and ingest URL. */
export interface MediaServerProcess {
  readonly name: string;
  /** Root of the server's process tree (what was started). */
  readonly pid: number;
  /** The Node process whose main thread runs the server's event loop, when not `pid` itself. */
  readonly mainPid?: number;
  /** RTMP URL for stream number `index`. */
  rtmpUrl(index: number): string;
  /** Checks that stream `index` is delivered; returns what is wrong, or undefined when it is. */
  verify(index: number): Promise<string | undefined>;
  /** Where the server's memory goes by purpose, bytes (Airwave's `airwave_memory_bytes` metric). */
  readonly memory?: () => Promise<Readonly<Record<string, number>>>;
  /** A check that would disturb the measurement (starts work in the server), run once after it. */
  readonly verifyAfter?: (index: number) => Promise<string | undefined>;
  stop(): Promise<void>;
}

/** Why a peer could not run, or the running peer. */
export type PeerStart =
  | { readonly ok: true; readonly peer: MediaServerProcess }
  | { readonly ok: false; readonly reason: string };

/**
 * Writes bench/peers/`template` into `dir`/nginx.conf with each `@NAME@` replaced by `values.NAME`
 * and starts nginx on it, prefixed to `dir` (its error log there too); `stderr` piped or ignored.
 */
function spawnNginx(
  dir: string,
  template: string,
  values: Readonly<Record<string, string>>,
  stderr: 'pipe' | 'ignore',
): ChildProcess {
  let conf = readFileSync(`${PEERS_DIR}${template}`, 'utf8');
  for (const [name, value] of Object.entries(values)) {
    conf = conf.replaceAll(`@${name}@`, value);
  }
  writeFileSync(`${dir}/nginx.conf`, conf);
  return spawn(NGINX, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], {
    stdio: ['ignore', 'ignore', stderr],
  });
}

/** Starts nginx-rtmp with HLS and DASH on, writing its files under bench/.work/nginx-<port>/. */
export async function startNginxRtmp(): Promise<PeerStart> {
  if (!existsSync(NGINX) || !existsSync(NGINX_RTMP_MODULE)) {
    return { ok: false, reason: `nginx-rtmp is not installed (${NGINX}, ${NGINX_RTMP_MODULE})` };
  }
  const port = await freePort();
  const dir = `${WORK_DIR}nginx-${port}`;
  mkdirSync(`${dir}/hls`, { recursive: true });
  mkdirSync(`${dir}/dash`, { recursive: true });
  mkdirSync(`${dir}/logs`, { recursive: true });
  const child = spawnNginx(
    dir,
    'nginx-rtmp.conf',
    { MODULE: NGINX_RTMP_MODULE, DIR: dir, RTMP_PORT: String(port) },
    'pipe',
  );
  const verify = async (index: number): Promise<string | undefined> => {
    const missing = [`hls/s${index}.m3u8`, `dash/s${index}.mpd`].filter((file) => !existsSync(`${dir}/${file}`));
    return missing.length > 0 ? `nginx-rtmp wrote no ${missing.join(', ')}` : undefined;
  };
  return startedPeer({
    name: 'nginx-rtmp',
    child,
    port,
    rtmpUrl: (index) => `rtmp://127.0.0.1:${port}/live/s${index}`,
    verify,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
}

/**
 * Starts nginx-rtmp recording every stream (`record all`, FLV files under bench/.work/nginx-rec-<port>/rec),
 * or with the same config recording nothing (`record off`) when `record` is false.
 */
export async function startNginxRtmpRecord(record = true): Promise<PeerStart> {
  if (!existsSync(NGINX) || !existsSync(NGINX_RTMP_MODULE)) {
    return { ok: false, reason: `nginx-rtmp is not installed (${NGINX}, ${NGINX_RTMP_MODULE})` };
  }
  const port = await freePort();
  const dir = `${WORK_DIR}nginx-rec-${port}`;
  mkdirSync(`${dir}/rec`, { recursive: true });
  mkdirSync(`${dir}/logs`, { recursive: true });
  const child = spawnNginx(
    dir,
    'nginx-rtmp-record.conf',
    { MODULE: NGINX_RTMP_MODULE, DIR: dir, RTMP_PORT: String(port), RECORD: record ? 'all' : 'off' },
    'pipe',
  );
  const verify = async (): Promise<string | undefined> =>
    readdirSync(`${dir}/rec`).length > 0 === record
      ? undefined
      : `nginx-rtmp record ${record ? 'all' : 'off'}: wrong files`;
  return startedPeer({
    name: record ? 'nginx-rtmp record all' : 'nginx-rtmp not recorded',
    child,
    port,
    rtmpUrl: (index) => `rtmp://127.0.0.1:${port}/live/s${index}`,
    verify,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
}

/** A static file server started for a comparison: the root PID of its process tree and its port. */
export interface StaticServer {
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts nginx serving the files of `filesDir` (config bench/peers/nginx-static.conf: one worker,
 * sendfile), or says why it could not.
 */
export async function startNginxStatic(
  filesDir: string,
): Promise<{ readonly ok: true; readonly server: StaticServer } | { readonly ok: false; readonly reason: string }> {
  if (!existsSync(NGINX)) {
    return { ok: false, reason: `nginx is not installed (${NGINX})` };
  }
  const port = await freePort();
  const dir = `${WORK_DIR}nginx-static-${port}`;
  mkdirSync(dir, { recursive: true });
  rmSync(`${dir}/files`, { force: true });
  symlinkSync(filesDir, `${dir}/files`);
  const child = spawnNginx(dir, 'nginx-static.conf', { DIR: dir, PORT: String(port) }, 'ignore');
  const stop = async (): Promise<void> => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child);
  } catch (error) {
    await stop();
    return { ok: false, reason: `nginx did not start: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { ok: true, server: { pid: child.pid ?? 0, port, stop } };
}

/** Installs Node-Media-Server into bench/.work/nms when absent and starts its bin/app.js. */
export async function startNodeMediaServer(): Promise<PeerStart> {
  const prefix = `${WORK_DIR}nms`;
  const app = `${prefix}/node_modules/node-media-server/bin/app.js`;
  if (!existsSync(app)) {
    const install = spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', `node-media-server@${NMS_VERSION}`],
      { encoding: 'utf8' },
    );
    if (install.status !== 0 || !existsSync(app)) {
      return {
        ok: false,
        reason: `npm install node-media-server@${NMS_VERSION} failed: ${install.stderr.slice(-300)}`,
      };
    }
  }
  const rtmpPort = await freePort();
  const httpPort = await freePort();
  const dir = `${WORK_DIR}nms-${rtmpPort}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/config.json`, readFileSync(`${PEERS_DIR}nms-config.json`));
  const child = spawn(
    process.execPath,
    [
      app,
      '-c',
      `${dir}/config.json`,
      '-b',
      '127.0.0.1',
      '--rtmp-port',
      String(rtmpPort),
      '--http-port',
      String(httpPort),
      '--no-admin',
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const verify = async (index: number): Promise<string | undefined> => {
    const url = `http://127.0.0.1:${httpPort}/live/s${index}.flv`;
    const bytes = await readForMs(url, 1500).catch(() => new Uint8Array());
    const signature = String.fromCharCode(...bytes.subarray(0, 3));
    return signature === 'FLV' && bytes.length > 10_000
      ? undefined
      : `${url} gave ${bytes.length} bytes, no FLV stream`;
  };
  return startedPeer({
    name: `Node-Media-Server ${NMS_VERSION}`,
    child,
    port: rtmpPort,
    rtmpUrl: (index) => `rtmp://127.0.0.1:${rtmpPort}/live/s${index}`,
    verify,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
}

/** Reads an endless HTTP body for `ms` milliseconds and returns what arrived. */
export async function readForMs(url: string, ms: number): Promise<Uint8Array> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const chunks: Uint8Array[] = [];
  try {
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) {
        break;
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      throw error;
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

/** Waits until a started server's port accepts connections: the running peer, or why it did not start (stderr's tail). */
export async function startedPeer(options: {
  name: string;
  child: ChildProcess;
  port: number;
  rtmpUrl: (index: number) => string;
  verify: (index: number) => Promise<string | undefined>;
  cleanup: () => void;
}): Promise<PeerStart> {
  const { name, child, port, rtmpUrl, verify, cleanup } = options;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  try {
    await waitForPort(port, child);
  } catch (error) {
    await stopChild(child);
    cleanup();
    return {
      ok: false,
      reason: `${name} did not start: ${error instanceof Error ? error.message : String(error)} ${stderr.trim()}`,
    };
  }
  return {
    ok: true,
    peer: {
      name,
      pid: child.pid ?? 0,
      rtmpUrl,
      verify,
      stop: async () => {
        await stopChild(child);
        cleanup();
      },
    },
  };
}
