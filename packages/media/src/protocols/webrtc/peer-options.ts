/**
 * Network and codec settings every WebRTC peer connection of this node shares (werift's
 * PeerConfig): the UDP port range, extra host candidates (public or Docker-mapped addresses,
 * loopback in tests), optional passive ICE-TCP, STUN/TURN servers to advertise, and the codecs
 * Airwave accepts (WHIP) or sends (WHEP): H.264 in packetization-mode 1 without B-frames, Opus;
 * AV1, then VP9, from a WHIP publisher whose offer has no H.264. VP8 is never accepted: the hub has no VP8
 * track type, so the service refuses a VP8-only WHIP offer with 406 before negotiating.
 */
import { RTCRtpCodecParameters, type RTCRtpHeaderExtensionParameters, useAbsSendTime, useSdesMid } from 'werift';

/** One ICE server as RFC 9725 §4.6 advertises it in a Link header. */
export interface IceServer {
  readonly urls: string;
  readonly username?: string;
  readonly credential?: string;
}

/** Node-wide WebRTC settings. */
export interface WebRtcNetworkOptions {
  /** First and last UDP port ICE may bind (inclusive); undefined: any ephemeral port. */
  readonly udpPortRange?: readonly [number, number];
  /** Addresses advertised as extra host candidates (NAT, Docker, 127.0.0.1 in tests). */
  readonly publicIps?: readonly string[];
  /** Also gather passive ICE-TCP candidates (RFC 6544). */
  readonly iceTcp?: boolean;
  /** STUN/TURN servers handed to clients in Link headers (the server itself uses none). */
  readonly iceServers?: readonly IceServer[];
}

const videoFeedback = [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'ccm', parameter: 'fir' }];

/** H.264 profiles accepted from publishers (constrained baseline, baseline, main, high), all packetization-mode 1. */
function h264Codecs(): RTCRtpCodecParameters[] {
  return ['42e01f', '42001f', '4d001f', '64001f'].map(
    (profile) =>
      new RTCRtpCodecParameters({
        mimeType: 'video/H264',
        clockRate: 90_000,
        rtcpFeedback: videoFeedback,
        parameters: `level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=${profile}`,
      }),
  );
}

function opusCodec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'audio/opus',
    clockRate: 48_000,
    channels: 2,
    parameters: 'minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1',
  });
}

/** AV1 (RTP payload format for AV1), accepted from publishers whose offer has no H.264. */
function av1Codec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({ mimeType: 'video/AV1', clockRate: 90_000, rtcpFeedback: videoFeedback });
}

/** VP9 profile 0 (RFC 9628), accepted from publishers whose offer has neither H.264 nor AV1. */
function vp9Codec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'video/VP9',
    clockRate: 90_000,
    rtcpFeedback: videoFeedback,
    parameters: 'profile-id=0',
  });
}

/** Video codecs a peer may negotiate: H.264 (every WHEP viewer, and WHIP by preference), AV1 or VP9 (WHIP only). */
export type PeerVideoCodec = 'h264' | 'av1' | 'vp9';

/** Codecs for a publishing (WHIP) or playing (WHEP) peer. */
export function peerCodecs(video: PeerVideoCodec = 'h264'): {
  video: RTCRtpCodecParameters[];
  audio: RTCRtpCodecParameters[];
} {
  const videoCodecs = video === 'av1' ? [av1Codec()] : video === 'vp9' ? [vp9Codec()] : h264Codecs();
  return { video: videoCodecs, audio: [opusCodec()] };
}

/** RTP header extensions negotiated (MID for BUNDLE demultiplexing, abs-send-time). */
export function peerHeaderExtensions(): {
  video: RTCRtpHeaderExtensionParameters[];
  audio: RTCRtpHeaderExtensionParameters[];
} {
  return { video: [useSdesMid(), useAbsSendTime()], audio: [useSdesMid()] };
}

/** The werift PeerConfig fields these options set. */
export function peerConfig(options: WebRtcNetworkOptions, video: PeerVideoCodec = 'h264') {
  return {
    codecs: peerCodecs(video),
    headerExtensions: peerHeaderExtensions(),
    iceServers: [],
    ...(options.udpPortRange
      ? { icePortRange: [options.udpPortRange[0], options.udpPortRange[1]] as [number, number] }
      : {}),
    ...(options.publicIps && options.publicIps.length > 0
      ? { iceAdditionalHostAddresses: [...options.publicIps] }
      : {}),
    iceUseTcp: options.iceTcp ?? false,
    iceTcpPassive: options.iceTcp ?? false,
    iceUseIpv6: false,
    bundlePolicy: 'max-bundle' as const,
  };
}

/** RFC 9725 §4.6 Link header values for the configured ICE servers. */
export function iceServerLinks(servers: readonly IceServer[] = []): string[] {
  return servers.map((server) => {
    const params = ['rel="ice-server"'];
    if (server.username !== undefined) {
      params.push(`username="${quoted(server.username)}"`);
    }
    if (server.credential !== undefined) {
      params.push(`credential="${quoted(server.credential)}"`, 'credential-type="password"');
    }
    return `<${server.urls}>; ${params.join('; ')}`;
  });
}

function quoted(value: string): string {
  return value.replace(/[\\"]/g, (c) => `\\${c}`);
}
