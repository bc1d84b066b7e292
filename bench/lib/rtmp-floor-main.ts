/**
 * The floor of RTMP ingest in Node (ADR 0080), run as its own process by `rtmp-floor.ts`: our RTMP
 * server and hub alone — handshake, chunk reader, session, hub; no packager, database or HTTP
 * server — every publisher read as bytes arrive, as for a watched stream. Listens on
 * 127.0.0.1:<argv[2]>, takes any stream key, and prints `live <key>` when a stream starts.
 */
import { Hub } from '@airwave/media/hub/hub';
import { silentLogger } from '@airwave/media/ports';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';

const hub = new Hub({ log: silentLogger });
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
