import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../config/config.js';
import { webrtcNetwork } from './webrtc-network.js';

describe('WebRTC configuration', () => {
  it('is on by default with ephemeral ports; a loopback node advertises 127.0.0.1', () => {
    const config = loadConfig({ AIRWAVE_HOST: '127.0.0.1' });
    assert.equal(config.webrtc.enabled, true);
    assert.deepEqual(webrtcNetwork(config), { publicIps: ['127.0.0.1'], iceTcp: false, iceServers: [] });
    assert.deepEqual(webrtcNetwork(loadConfig({})).publicIps, []);
  });

  it('reads the port range, public addresses, ICE-TCP and ICE servers', () => {
    const config = loadConfig({
      AIRWAVE_WEBRTC_UDP_PORT_MIN: '40000',
      AIRWAVE_WEBRTC_UDP_PORT_MAX: '40100',
      AIRWAVE_WEBRTC_PUBLIC_IPS: '203.0.113.7, 198.51.100.2',
      AIRWAVE_WEBRTC_ICE_TCP: 'true',
      AIRWAVE_WEBRTC_ICE_SERVERS: 'stun:stun.example.net:3478,turn:turn.example.net',
    });
    assert.deepEqual(webrtcNetwork(config), {
      udpPortRange: [40000, 40100],
      publicIps: ['203.0.113.7', '198.51.100.2'],
      iceTcp: true,
      iceServers: [{ urls: 'stun:stun.example.net:3478' }, { urls: 'turn:turn.example.net' }],
    });
    assert.equal(loadConfig({ AIRWAVE_WEBRTC: 'false' }).webrtc.enabled, false);
  });

  it('refuses a half or inverted range, a bad address and a bad server URL, naming the setting', () => {
    assert.throws(() => loadConfig({ AIRWAVE_WEBRTC_UDP_PORT_MIN: '40000' }), ConfigError);
    assert.throws(
      () => loadConfig({ AIRWAVE_WEBRTC_UDP_PORT_MIN: '40100', AIRWAVE_WEBRTC_UDP_PORT_MAX: '40000' }),
      /UDP_PORT_MIN/,
    );
    assert.throws(() => loadConfig({ AIRWAVE_WEBRTC_PUBLIC_IPS: 'example.com' }), /PUBLIC_IPS: example.com/);
    assert.throws(() => loadConfig({ AIRWAVE_WEBRTC_ICE_SERVERS: 'http://x' }), /ICE_SERVERS/);
  });
});
