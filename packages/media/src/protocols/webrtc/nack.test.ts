/**
 * NACK retransmission (RFC 4585 §6.2.1) in both directions, with werift clients on loopback whose
 * own debug switch drops a share of the datagrams they receive or send: between Airwave and a
 * WHEP viewer, the viewer's NACKs are answered from RtpSendPath's history until every packet
 * arrived; between a WHIP publisher and Airwave, Airwave's receiver NACKs and the publisher
 * resends, so every frame reaches the hub whole.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import { fixture } from '../../codecs/fixtures.js';
import { buildAvcC } from '../../codecs/h264.js';
import { toLengthPrefixed } from '../../codecs/nal.js';
import { Hub } from '../../hub/hub.js';
import { type PublishAuthorizer, type PublishGrant, silentLogger } from '../../ports.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { until } from '../../testing/until.js';
import { packetizeH264 } from '../shared/rtp/h264-packetizer.js';
import { peerCodecs } from './peer-options.js';
import { WebRtcService } from './webrtc-service.js';

const GRANT: PublishGrant = { streamId: 'stream-n', playbackId: 'play-n' };
const SDP = 'application/sdp';
/** werift drops a datagram when `loss / 100 < Math.random()`: 95 drops about one in twenty. */
const DROP_ONE_IN_TWENTY = 95;
const FRAMES = 60;

const keys: PublishAuthorizer = {
  async authorize(streamKey: string) {
    return streamKey === 'sk_nack' ? GRANT : null;
  },
};

/** An access unit of about five RTP packets: an IDR or a P slice. */
function slice(key: boolean, index: number): Uint8Array {
  const nal = new Uint8Array(5500).fill(index & 0xff);
  nal[0] = key ? 0x65 : 0x41;
  return nal;
}

describe('NACK retransmission', () => {
  const peers: RTCPeerConnection[] = [];
  const services: WebRtcService[] = [];
  after(async () => {
    for (const service of services) {
      service.close();
    }
    await Promise.all(peers.map((pc) => pc.close()));
  });
  /** A hub and the service, and a werift client whose debug switch drops one datagram in twenty. */
  const setup = (direction: 'inbound' | 'outbound') => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const service = new WebRtcService({
      hub,
      authorizer: keys,
      log: silentLogger,
      network: { publicIps: ['127.0.0.1'] },
      keyframeIntervalMs: 60_000,
    });
    services.push(service);
    const pc = new RTCPeerConnection({
      codecs: peerCodecs(),
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceServers: [],
      debug:
        direction === 'inbound'
          ? { inboundPacketLoss: DROP_ONE_IN_TWENTY }
          : { outboundPacketLoss: DROP_ONE_IN_TWENTY },
    });
    peers.push(pc);
    return { hub, service, pc };
  };

  it('recovers packets lost between Airwave and a WHEP viewer from the send history', async () => {
    const { hub, service, pc: viewer } = setup('inbound');
    const publisher = hub.publish(GRANT, 'rtmp');
    const avcC = buildAvcC([fixture('h264Sps')], [fixture('h264Pps')]);
    publisher.setDescription({ tracks: [{ ...trackWithConfig('h264', avcC), codecString: 'avc1.64000a' }] });
    const write = (index: number) =>
      publisher.write({
        trackId: 1,
        dts: index * 3000,
        pts: index * 3000,
        key: index === 0,
        data: toLengthPrefixed([slice(index === 0, index)]),
      });
    write(0);
    viewer.addTransceiver('video', { direction: 'recvonly' });
    const received = new Set<number>();
    let firstSequence: number | undefined;
    viewer.onTrack.subscribe((track) =>
      track.onReceiveRtp.subscribe((rtp) => {
        firstSequence ??= rtp.header.sequenceNumber;
        received.add(rtp.header.sequenceNumber);
      }),
    );
    await viewer.setLocalDescription(await viewer.createOffer());
    const answer = await service.play('play-n', viewer.localDescription?.sdp ?? '', SDP, { sessionId: 'n' }, '/w');
    assert.equal(answer.status, 201, answer.body);
    await viewer.setRemoteDescription({ type: 'answer', sdp: answer.body });
    await until(() => received.size > 0, 'the first packets', 15_000);
    let next = 1;
    for (; next < FRAMES; next++) {
      write(next);
      await new Promise((resolve) => setTimeout(resolve, 33));
    }
    const session = service.playSessions[0];
    // A lost packet is noticed when a later one arrives: frames keep coming while the viewer catches
    // up, and every packet from the first received to the last of the FRAMES must be there.
    const expected = (session?.sendStats.video?.packets ?? 0) - 1;
    const tail = setInterval(() => write(next++), 33);
    try {
      await until(
        () => contiguousFrom(received, firstSequence, expected),
        `${expected} packets in a row at the viewer (${received.size} received)`,
        20_000,
      );
    } finally {
      clearInterval(tail);
    }
    const stats = session?.sendStats.video;
    assert.ok(stats && stats.retransmitted > 0, 'packets were sent again');
  });

  it('recovers packets lost between a WHIP publisher and Airwave: every frame reaches the hub', async () => {
    const { hub, service, pc } = setup('outbound');
    const video = pc.addTransceiver('video', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const answer = await service.publish('sk_nack', pc.localDescription?.sdp ?? '', SDP, '/whip/sessions');
    assert.equal(answer.status, 201, answer.body);
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.body });
    await until(() => pc.connectionState === 'connected', 'the publisher to connect', 15_000);
    const payloadType = video.sender.codec?.payloadType ?? 0;
    let sequence = 1000;
    const send = async (index: number) => {
      const nals = index === 0 ? [fixture('h264Sps'), fixture('h264Pps'), slice(true, 0)] : [slice(false, index)];
      for (const { payload, marker } of packetizeH264(nals)) {
        const header = new RtpHeader({ payloadType, sequenceNumber: sequence++, timestamp: index * 3000, marker });
        await video.sender.sendRtp(new RtpPacket(header, Buffer.from(payload)));
      }
    };
    await send(0);
    await until(() => hub.getByPlaybackId('play-n') !== undefined, 'the stream to go live', 15_000);
    const stream = hub.getByPlaybackId('play-n');
    assert.ok(stream);
    const reader = stream.openReader({ maxUnits: 1024, maxBytes: 64 * 1024 * 1024 });
    const arrived: number[] = [];
    void (async () => {
      for await (const unit of reader) {
        arrived.push(unit.pts);
      }
    })();
    for (let index = 1; index < FRAMES; index++) {
      await send(index);
      await new Promise((resolve) => setTimeout(resolve, 33));
    }
    // The last frame is complete once the next one starts: one more so that FRAMES - 1 are whole.
    await send(FRAMES);
    await until(() => arrived.length >= FRAMES - 1, `${FRAMES - 1} frames in the hub (${arrived.length})`, 20_000);
    const retransmitted = (video.sender as unknown as { retransmittedPacketsSent: number }).retransmittedPacketsSent;
    assert.ok(retransmitted > 0, 'the publisher resent what Airwave asked for');
    reader.close();
  });
});

/** Whether the `count` sequence numbers from `first` on (16-bit, wrapping) were all received. */
function contiguousFrom(received: ReadonlySet<number>, first: number | undefined, count: number): boolean {
  if (first === undefined) {
    return false;
  }
  for (let offset = 0; offset < count; offset++) {
    if (!received.has((first + offset) & 0xffff)) {
      return false;
    }
  }
  return true;
}
