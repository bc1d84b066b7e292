/**
 * Starts the RTMP ingest floor (`rtmp-floor-main.ts`: our RTMP server and hub alone, ADR 0080) as
 * a media server under test, on the benchmark's own loader (tsx, source conditions).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './child-process.js';
import { type PeerStart, startedPeer } from './peers.js';

const MAIN = fileURLToPath(new URL('./rtmp-floor-main.ts', import.meta.url));

/**
 * The floor process on a free port; `verify` checks that the stream went live in its hub. `built`
 * runs it on the packages' build (`dist`, as the service runs) with Node's own type stripping
 * instead of the benchmark's loader: no tsx, so no esbuild helper thread in its figures (ADR 0092).
 * `nodeArgs` go to node before the script (e.g. the service's V8 flags). `packaged` also attaches
 * the service's always-on packagers (TS-HLS, CMAF) to the floor's hub (ADR 0094).
 */
export async function startRtmpFloor(
  built = false,
  nodeArgs: readonly string[] = [],
  packaged = false,
): Promise<PeerStart> {
  const port = await freePort();
  const script = [MAIN, String(port), ...(packaged ? ['packaged'] : [])];
  const child = spawn(process.execPath, [...nodeArgs, ...(built ? [] : process.execArgv), ...script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const live = new Set<string>();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('live ')) {
        live.add(line.slice('live '.length));
      }
    }
  });
  return startedPeer({
    name: packaged
      ? 'Airwave RTMP reader and packagers alone (floor + TS-HLS and CMAF, no database or HTTP)'
      : 'Airwave RTMP reader alone (floor: RTMP server + hub, no packager, database or HTTP)',
    child,
    port,
    rtmpUrl: (index) => `rtmp://127.0.0.1:${port}/live/s${index}`,
    verify: async (index) => (live.has(`s${index}`) ? undefined : `stream s${index} never went live`),
    cleanup: () => undefined,
  });
}
