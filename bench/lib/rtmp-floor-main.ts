/**
 * The floor of RTMP ingest in Node (ADR 0080), run as its own process by `rtmp-floor.ts`: our RTMP
 * server and hub alone — handshake, chunk reader, session, hub; no packager, database or HTTP
 * server — every publisher read as bytes arrive, as for a watched stream. Listens on
 * 127.0.0.1:<argv[2]>, takes any stream key, and prints `live <key>` when a stream starts.
 * With argv[3] `packaged` the hub also feeds the packagers the service attaches to a watched
 * stream (TS-HLS, and CMAF for LL-HLS and DASH, both always on and spooling to a scratch
 * directory, as `packages/server/src/main/start.ts` wires them): the packagers without the rest of
 * the service (ADR 0094).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hub } from '@airwave/media/hub/hub';
import { silentLogger } from '@airwave/media/ports';
import { SegmentSpool } from '@airwave/media/protocols/hls/ts/segment-spool';
import { TsHlsService } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';
import { CmafRegistry } from '@airwave/media/protocols/shared/cmaf/cmaf-registry';

const hub = new Hub({ log: silentLogger });
if (process.argv[3] === 'packaged') {
  const spoolDir = mkdtempSync(join(tmpdir(), 'airwave-floor-spool-'));
  process.once('exit', () => rmSync(spoolDir, { recursive: true, force: true }));
  process.once('SIGTERM', () => process.exit(0));
  new TsHlsService(hub, { packaging: 'always', spool: new SegmentSpool(join(spoolDir, 'hls')) });
  CmafRegistry.forHub(hub, {
    packaging: 'always',
    packager: { log: silentLogger, spool: new SegmentSpool(join(spoolDir, 'cmaf')) },
  });
}
hub.addOutput((stream) => {
  process.stdout.write(`live ${stream.streamId}\n`);
  return { close: () => undefined };
});
const server = new RtmpServer({
  hub,
  log: silentLogger,
  authorizer: { authorize: async (key) => ({ streamId: key, playbackId: key }) },
  mergedReadMs: 0,
});
await server.listen(Number(process.argv[2]), '127.0.0.1');
