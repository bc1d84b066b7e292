import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { fixture } from '../../codecs/fixtures.js';
import { buildAvcC } from '../../codecs/h264.js';
import { toLengthPrefixed } from '../../codecs/nal.js';
import { Hub } from '../../hub/hub.js';
import { type PublishAuthorizer, type PublishGrant, silentLogger } from '../../ports.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { until } from '../../testing/until.js';
import { peerCodecs } from './peer-options.js';
import { WebRtcService } from './webrtc-service.js';

const GRANT: PublishGrant = { streamId: 'stream-1', playbackId: 'play-1' };

/** A stream-key authorizer whose one key can be revoked. */
class Keys implements PublishAuthorizer {
  active = true;
  async authorize(streamKey: string): Promise<PublishGrant | null> {
    return streamKey === 'sk_good' && this.active ? GRANT : null;
  }
}

/** A werift client's offer (not connected unless the test answers it). */
async function clientOffer(
  kind: 'publish' | 'play',
  codecs = peerCodecs(),
): Promise<{ pc: RTCPeerConnection; sdp: string }> {
  const pc = new RTCPeerConnection({ codecs, iceAdditionalHostAddresses: ['127.0.0.1'] });
  pc.addTransceiver('video', { direction: kind === 'publish' ? 'sendonly' : 'recvonly' });
  pc.addTransceiver('audio', { direction: kind === 'publish' ? 'sendonly' : 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, sdp: pc.localDescription?.sdp ?? '' };
}

const SDP = 'application/sdp';

describe('WebRtcService (werift client on loopback)', () => {
  const peers: RTCPeerConnection[] = [];
  const services: WebRtcService[] = [];
  const setup = (options: Partial<ConstructorParameters<typeof WebRtcService>[0]> = {}) => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const keys = new Keys();
    const service = new WebRtcService({
      hub,
      authorizer: keys,
      log: silentLogger,
      network: { publicIps: ['127.0.0.1'] },
      ...options,
    });
    services.push(service);
    return { hub, keys, service };
  };
  after(async () => {
    for (const service of services) {
      service.close();
    }
    await Promise.all(peers.map((pc) => pc.close()));
  });

  it('refuses bad requests before creating anything', async () => {
    const { hub, service } = setup();
    const { pc, sdp } = await clientOffer('publish');
    peers.push(pc);
    assert.equal((await service.publish(undefined, sdp, SDP, '/whip/sessions')).status, 401);
    assert.equal((await service.publish('sk_bad', sdp, SDP, '/whip/sessions')).status, 403);
    assert.equal((await service.publish('sk_good', sdp, 'text/plain', '/whip/sessions')).status, 415);
    const garbage = await service.publish('sk_good', 'v=0\r\nnonsense', SDP, '/whip/sessions');
    assert.equal(garbage.status, 400);
    assert.match(garbage.body, /bad_offer/);
    const vp8 = await clientOffer('publish', {
      video: [new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000 })],
      audio: peerCodecs().audio,
    });
    peers.push(vp8.pc);
    const refused = await service.publish('sk_good', vp8.sdp, SDP, '/whip/sessions');
    assert.equal(refused.status, 406);
    assert.match(refused.body, /unsupported_codec.*vp8/);
    assert.equal(
      (await service.play('play-1', sdp, SDP, { sessionId: 'v' }, '/whep/sessions')).status,
      400,
      'a sendonly offer to WHEP',
    );
    const viewer = await clientOffer('play');
    peers.push(viewer.pc);
    assert.equal((await service.play('play-1', viewer.sdp, SDP, { sessionId: 'v' }, '/whep/sessions')).status, 404);
    assert.equal(hub.streams().length, 0);
    assert.equal(service.publishSessions.length, 0);
  });

  it('answers within the UDP port range, then closes a session whose ICE never completes', async () => {
    const { hub, service } = setup({
      connectTimeoutMs: 800,
      network: { publicIps: ['127.0.0.1'], udpPortRange: [47_100, 47_140] },
    });
    const { pc, sdp } = await clientOffer('publish');
    peers.push(pc);
    const answer = await service.publish('sk_good', sdp, SDP, '/whip/sessions');
    assert.equal(answer.status, 201, answer.body);
    assert.match(String(answer.headers.location), /^\/whip\/sessions\/[\w-]{24}$/);
    assert.equal(answer.headers['accept-patch'], 'application/trickle-ice-sdpfrag');
    const ports = [...answer.body.matchAll(/a=candidate:\S+ \d udp \d+ \S+ (\d+) typ/g)].map((m) => Number(m[1]));
    assert.ok(ports.length > 0);
    for (const port of ports) {
      assert.ok(port >= 47_100 && port <= 47_140, `candidate port ${port} outside the range`);
    }
    assert.equal((await service.publish('sk_good', sdp, SDP, '/whip/sessions')).status, 409);
    await until(() => service.publishSessions.length === 0, 'the unconnected session to time out');
    assert.equal(hub.streams().length, 0);
  });

  it('checks PATCH bodies and closes a publish whose key is revoked', async () => {
    const { keys, service } = setup({ keyCheckIntervalMs: 100 });
    const { pc, sdp } = await clientOffer('publish');
    peers.push(pc);
    const answer = await service.publish('sk_good', sdp, SDP, '/whip/sessions');
    assert.equal(answer.status, 201);
    const id = String(answer.headers.location).split('/').at(-1) ?? '';
    const frag = 'application/trickle-ice-sdpfrag';
    assert.equal((await service.patch('whip', 'nope', '', frag)).status, 404);
    assert.equal((await service.patch('whip', id, 'a=candidate:x\r\n', 'text/plain')).status, 415);
    assert.equal((await service.patch('whip', id, 'a=candidate:x\r\n', frag)).status, 400);
    assert.equal((await service.patch('whip', id, 'a=ice-ufrag:other\r\n', frag)).status, 422);
    const candidate = 'a=mid:0\r\na=candidate:1 1 udp 2122260223 127.0.0.1 9 typ host\r\na=end-of-candidates\r\n';
    assert.equal((await service.patch('whip', id, candidate, frag)).status, 204);
    keys.active = false;
    await until(() => service.publishSessions.length === 0, 'the session of a revoked key to close');
  });

  it('advertises configured ICE servers in Link headers and passive ICE-TCP candidates when enabled', async () => {
    const { service } = setup({
      network: {
        publicIps: ['127.0.0.1'],
        iceTcp: true,
        iceServers: [
          { urls: 'stun:stun.example.net:3478' },
          { urls: 'turn:turn.example.net', username: 'u', credential: 'p"w' },
        ],
      },
    });
    const { pc, sdp } = await clientOffer('publish');
    peers.push(pc);
    const answer = await service.publish('sk_good', sdp, SDP, '/whip/sessions');
    assert.equal(answer.status, 201, answer.body);
    assert.deepEqual(answer.headers.link, [
      '<stun:stun.example.net:3478>; rel="ice-server"',
      '<turn:turn.example.net>; rel="ice-server"; username="u"; credential="p\\"w"; credential-type="password"',
    ]);
    assert.match(answer.body, /a=candidate:\S+ \d tcp \d+ 127\.0\.0\.1 \d+ typ host tcptype passive/);
  });

  it('WHEP: a viewer starts at a keyframe with the SPS/PPS in band, and follows a new SPS after a re-declaration', async () => {
    const { hub, service } = setup();
    const publisher = hub.publish(GRANT, 'rtmp');
    const avcC = buildAvcC([fixture('h264Sps')], [fixture('h264Pps')]);
    const otherSps = Uint8Array.from(fixture('h264Sps'));
    otherSps[3] = 0x1f; // level_idc 3.1 instead of 1.0: another SPS
    const describe = (config: Uint8Array) =>
      publisher.setDescription({ tracks: [{ ...trackWithConfig('h264', config), codecString: 'avc1.64000a' }] });
    const unit = (dts: number, key: boolean) => ({
      trackId: 1,
      dts,
      pts: dts,
      key,
      data: toLengthPrefixed([Uint8Array.of(key ? 0x65 : 0x41, 0x88, dts & 0xff)]),
    });
    describe(avcC);
    publisher.write(unit(0, true));
    publisher.write(unit(3000, false));
    const viewer = new RTCPeerConnection({ codecs: peerCodecs(), iceAdditionalHostAddresses: ['127.0.0.1'] });
    peers.push(viewer);
    viewer.addTransceiver('video', { direction: 'recvonly' });
    const firstNals: number[][] = [];
    viewer.onTrack.subscribe((track) =>
      track.onReceiveRtp.subscribe((rtp) => firstNals.push([...rtp.payload.subarray(0, 4)])),
    );
    await viewer.setLocalDescription(await viewer.createOffer());
    const answer = await service.play(
      'play-1',
      viewer.localDescription?.sdp ?? '',
      SDP,
      { sessionId: 'viewer' },
      '/whep/sessions',
    );
    assert.equal(answer.status, 201, answer.body);
    await viewer.setRemoteDescription({ type: 'answer', sdp: answer.body });
    await until(() => firstNals.length >= 3, 'the cached GOP to arrive', 15_000);
    assert.deepEqual(firstNals[0]?.slice(0, 4), [...fixture('h264Sps').subarray(0, 4)], 'the SPS comes first');
    assert.equal(hub.getByPlaybackId('play-1')?.viewers.count, 1);
    const newAvcC = buildAvcC([otherSps], [fixture('h264Pps')]);
    describe(newAvcC);
    const before = firstNals.length;
    publisher.write(unit(6000, true));
    await until(() => firstNals.length > before, 'the new keyframe', 15_000);
    assert.deepEqual(firstNals[before], [...otherSps.subarray(0, 4)], 'the new SPS goes before the new IDR');
  });
});
