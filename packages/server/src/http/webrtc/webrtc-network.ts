/** The media plane's WebRTC network options from the node's configuration. */
import type { WebRtcNetworkOptions } from '@airwave/media/protocols/webrtc/peer-options';
import type { Config } from '../../config/config.js';

/**
 * Port range, host candidates and ICE servers. A node bound to a loopback address also
 * advertises 127.0.0.1 (werift gathers only non-loopback interfaces), so local clients and tests
 * connect without any setting.
 */
export function webrtcNetwork(config: Config): WebRtcNetworkOptions {
  const loopbackOnly = /^(127\.|localhost$|::1$)/.test(config.host);
  const publicIps = [...config.webrtc.publicIps];
  if (loopbackOnly && !publicIps.includes('127.0.0.1')) {
    publicIps.push('127.0.0.1');
  }
  return {
    ...(config.webrtc.udpPortRange ? { udpPortRange: config.webrtc.udpPortRange } : {}),
    publicIps,
    iceTcp: config.webrtc.iceTcp,
    iceServers: config.webrtc.iceServers.map((urls) => ({ urls })),
  };
}
