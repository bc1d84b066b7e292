/**
 * Test-only RTSP server (RFC 2326) serving encoded H.264 or H.265 + AAC or Opus over interleaved
 * TCP only: OPTIONS, DESCRIBE (SDP with the sprop parameter sets and the AAC config), SETUP
 * (`RTP/AVP/TCP;interleaved`, UDP answered 461), PLAY and TEARDOWN; RTP packetized per RFC 6184
 * (single NAL units and FU-A), RFC 7798 (single NAL units and FU), RFC 3640 (AAC-hbr) and
 * RFC 7587 (Opus), paced in real time and looped. It can also
 * answer DESCRIBE with a redirect, for the guard's redirect tests, and ask for Basic or Digest
 * (MD5, qop=auth) credentials.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { parseAvcC } from '../codecs/h264.js';
import { parseHvcC } from '../codecs/h265.js';
import { splitLengthPrefixed } from '../codecs/nal.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { AudioTrack, Track, VideoTrack } from '../stream/track.js';
import { type ListeningTestServer, listenForTest } from './tcp-test-server.js';

/** Options of the test server. */
export interface RtspTestServerOptions {
  readonly tracks: readonly Track[];
  readonly units: readonly MediaUnit[];
  /** Answer DESCRIBE with `302` to this location instead of serving. */
  readonly redirectTo?: string;
  /** Ask every request but OPTIONS for these credentials. */
  readonly credentials?: { readonly username: string; readonly password: string; readonly scheme: 'basic' | 'digest' };
}

const REALM = 'Airwave test';
const NONCE = '6169727761766574657374';

/** Whether a request head carries the right credentials (Digest checked per RFC 7616 with MD5). */
function authorized(
  head: string,
  method: string,
  credentials: NonNullable<RtspTestServerOptions['credentials']>,
): boolean {
  const header = /\r\nAuthorization:\s*([^\r\n]*)/i.exec(head)?.[1] ?? '';
  const { username, password, scheme } = credentials;
  if (scheme === 'basic') {
    return header === `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  if (!header.startsWith('Digest ')) {
    return false;
  }
  const params = new Map(
    [...header.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)].map((m) => [
      m[1] as string,
      (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1'),
    ]),
  );
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const ha1 = md5(`${username}:${REALM}:${password}`);
  const ha2 = md5(`${method}:${params.get('uri')}`);
  const expected = md5(`${ha1}:${NONCE}:${params.get('nc')}:${params.get('cnonce')}:auth:${ha2}`);
  return params.get('username') === username && params.get('nonce') === NONCE && params.get('response') === expected;
}

/** A running test server. */
export interface RtspTestServer extends ListeningTestServer {
  /** Request lines received (method and URI). */
  readonly requests: string[];
  /** Connections accepted. */
  connections(): number;
}

const MTU = 1400;

function rtpPacket(
  channel: number,
  payloadType: number,
  marker: boolean,
  seq: number,
  timestamp: number,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(4 + 12 + payload.byteLength);
  const view = new DataView(out.buffer);
  out[0] = 0x24;
  out[1] = channel;
  view.setUint16(2, 12 + payload.byteLength);
  out[4] = 0x80;
  out[5] = (marker ? 0x80 : 0) | payloadType;
  view.setUint16(6, seq & 0xffff);
  view.setUint32(8, timestamp >>> 0);
  view.setUint32(12, 0x41495257 + channel);
  out.set(payload, 16);
  return out;
}

/** RFC 6184 payloads of one access unit's NAL units (FU-A above the MTU). */
function h264Payloads(nals: readonly Uint8Array[]): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  for (const nal of nals) {
    if (nal.byteLength <= MTU) {
      payloads.push(nal);
      continue;
    }
    const header = nal[0] ?? 0;
    for (let at = 1; at < nal.byteLength; at += MTU) {
      const chunk = nal.subarray(at, Math.min(nal.byteLength, at + MTU));
      const payload = new Uint8Array(2 + chunk.byteLength);
      payload[0] = (header & 0xe0) | 28;
      payload[1] = (at === 1 ? 0x80 : 0) | (at + MTU >= nal.byteLength ? 0x40 : 0) | (header & 0x1f);
      payload.set(chunk, 2);
      payloads.push(payload);
    }
  }
  return payloads;
}

/** RFC 7798 payloads of one access unit's NAL units (FU above the MTU). */
function h265Payloads(nals: readonly Uint8Array[]): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  for (const nal of nals) {
    if (nal.byteLength <= MTU) {
      payloads.push(nal);
      continue;
    }
    const type = ((nal[0] ?? 0) >> 1) & 0x3f;
    for (let at = 2; at < nal.byteLength; at += MTU) {
      const chunk = nal.subarray(at, Math.min(nal.byteLength, at + MTU));
      const payload = new Uint8Array(3 + chunk.byteLength);
      payload[0] = ((nal[0] ?? 0) & 0x81) | (49 << 1);
      payload[1] = nal[1] ?? 1;
      payload[2] = (at === 2 ? 0x80 : 0) | (at + MTU >= nal.byteLength ? 0x40 : 0) | type;
      payload.set(chunk, 3);
      payloads.push(payload);
    }
  }
  return payloads;
}

/** The in-band parameter sets and the SDP fmtp of a video track. */
function videoParameters(video: VideoTrack): { sets: Uint8Array[]; fmtp: string; rtpmap: string } {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (video.codec === 'h265') {
    const hvcC = parseHvcC(video.config);
    return {
      sets: [...hvcC.vps, ...hvcC.sps, ...hvcC.pps],
      rtpmap: 'H265/90000',
      fmtp: `sprop-vps=${hvcC.vps.map(b64).join(',')};sprop-sps=${hvcC.sps.map(b64).join(',')};sprop-pps=${hvcC.pps.map(b64).join(',')}`,
    };
  }
  const avcC = parseAvcC(video.config);
  const profile = Buffer.from(video.config.subarray(1, 4)).toString('hex');
  return {
    sets: [...avcC.sps, ...avcC.pps],
    rtpmap: 'H264/90000',
    fmtp: `packetization-mode=1;profile-level-id=${profile};sprop-parameter-sets=${[...avcC.sps, ...avcC.pps].map(b64).join(',')}`,
  };
}

/** RFC 3640 AAC-hbr payload of one frame (one AU header: 13-bit size, 3-bit index). */
function aacPayload(frame: Uint8Array): Uint8Array {
  const payload = new Uint8Array(4 + frame.byteLength);
  payload[1] = 16;
  payload[2] = (frame.byteLength >> 5) & 0xff;
  payload[3] = (frame.byteLength & 0x1f) << 3;
  payload.set(frame, 4);
  return payload;
}

function sdp(video: VideoTrack, audio: AudioTrack | undefined): string {
  const parameters = videoParameters(video);
  const lines = [
    'v=0',
    'o=- 0 0 IN IP4 127.0.0.1',
    's=Airwave test source',
    'c=IN IP4 0.0.0.0',
    't=0 0',
    'm=video 0 RTP/AVP 96',
    `a=rtpmap:96 ${parameters.rtpmap}`,
    `a=fmtp:96 ${parameters.fmtp}`,
    'a=control:trackID=0',
  ];
  if (audio?.codec === 'opus') {
    lines.push('m=audio 0 RTP/AVP 97', 'a=rtpmap:97 opus/48000/2', 'a=fmtp:97 sprop-stereo=1', 'a=control:trackID=1');
  } else if (audio) {
    lines.push(
      'm=audio 0 RTP/AVP 97',
      `a=rtpmap:97 MPEG4-GENERIC/${audio.sampleRate}/${audio.channels}`,
      `a=fmtp:97 streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=${Buffer.from(audio.config).toString('hex')}`,
      'a=control:trackID=1',
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Starts the server on 127.0.0.1 and an ephemeral port. */
export async function startRtspTestServer(options: RtspTestServerOptions): Promise<RtspTestServer> {
  const video = options.tracks.find(
    (track): track is VideoTrack => track.kind === 'video' && (track.codec === 'h264' || track.codec === 'h265'),
  );
  const audio = options.tracks.find(
    (track): track is AudioTrack => track.kind === 'audio' && (track.codec === 'aac' || track.codec === 'opus'),
  );
  if (!video) {
    throw new Error('the RTSP test server needs an H.264 or H.265 track');
  }
  const parameterSets = videoParameters(video).sets;
  const videoPayloads = video.codec === 'h265' ? h265Payloads : h264Payloads;
  const requests: string[] = [];
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    let stopPlaying: (() => void) | undefined;
    socket.on('close', () => stopPlaying?.());
    socket.on('error', () => undefined);
    let buffered = '';
    const channels = new Map<string, number>();
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        if (buffered.startsWith('$')) {
          // RTCP receiver reports from the client: skip them.
          if (buffered.length < 4) {
            return;
          }
          const length = (buffered.charCodeAt(2) << 8) | buffered.charCodeAt(3);
          if (buffered.length < 4 + length) {
            return;
          }
          buffered = buffered.slice(4 + length);
          continue;
        }
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) {
          return;
        }
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        const [method = '', uri = ''] = head.split('\r\n')[0]?.split(' ') ?? [];
        const cseq = /\r\nCSeq:\s*(\d+)/i.exec(head)?.[1] ?? '0';
        requests.push(`${method} ${uri}`);
        const reply = (status: string, headers: Record<string, string> = {}, body = ''): void => {
          const all = {
            CSeq: cseq,
            ...headers,
            ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
          };
          const text = Object.entries(all)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('');
          socket.write(`RTSP/1.0 ${status}\r\n${text}\r\n${body}`);
        };
        if (options.credentials && method !== 'OPTIONS' && !authorized(head, method, options.credentials)) {
          const challenge =
            options.credentials.scheme === 'basic'
              ? `Basic realm="${REALM}"`
              : `Digest realm="${REALM}", nonce="${NONCE}", qop="auth", algorithm=MD5`;
          reply('401 Unauthorized', { 'WWW-Authenticate': challenge });
        } else if (method === 'OPTIONS') {
          reply('200 OK', { Public: 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN' });
        } else if (method === 'DESCRIBE') {
          if (options.redirectTo) {
            reply('302 Moved Temporarily', { Location: options.redirectTo });
          } else {
            const base = uri.endsWith('/') ? uri : `${uri}/`;
            reply('200 OK', { 'Content-Type': 'application/sdp', 'Content-Base': base }, sdp(video, audio));
          }
        } else if (method === 'SETUP') {
          const transport = /\r\nTransport:\s*([^\r\n]*)/i.exec(head)?.[1] ?? '';
          const interleaved = /interleaved=(\d+)/.exec(transport)?.[1];
          if (!transport.includes('TCP') || interleaved === undefined) {
            reply('461 Unsupported Transport');
          } else {
            channels.set(uri.endsWith('trackID=1') ? 'audio' : 'video', Number(interleaved));
            reply('200 OK', {
              Transport: `RTP/AVP/TCP;unicast;interleaved=${interleaved}-${Number(interleaved) + 1}`,
              Session: '4149525741564531;timeout=60',
            });
          }
        } else if (method === 'PLAY') {
          reply('200 OK', { Session: '4149525741564531', Range: 'npt=0.000-' });
          stopPlaying ??= play(socket, channels);
        } else if (method === 'TEARDOWN') {
          reply('200 OK', { Session: '4149525741564531' });
          socket.end();
        } else {
          reply('501 Not Implemented');
        }
      }
    });
  });

  /** Sends the units in real time, from the first one at once, until the returned stop is called. */
  const play = (socket: Socket, channels: Map<string, number>): (() => void) => {
    const started = Date.now();
    const times = options.units.map(
      (unit) => unit.dts / (options.tracks.find((t) => t.id === unit.trackId)?.timescale ?? 1),
    );
    const firstSeconds = Math.min(...times);
    const lastSeconds = Math.max(...times);
    let loop = 0;
    let index = 0;
    let seqVideo = 0;
    let seqAudio = 0;
    let timer: NodeJS.Timeout | undefined;
    const send = (): void => {
      const due = (Date.now() - started) / 1000 + firstSeconds;
      for (;;) {
        const unit = options.units[index];
        if (!unit) {
          index = 0;
          loop++;
          continue;
        }
        const track = options.tracks.find((candidate) => candidate.id === unit.trackId) as Track;
        const loopSeconds = loop * (lastSeconds - firstSeconds + 0.1);
        if (unit.dts / track.timescale + loopSeconds > due) {
          break;
        }
        index++;
        const offset = Math.round(loopSeconds * track.timescale);
        if (track === video && channels.has('video')) {
          const nals = splitLengthPrefixed(unit.data);
          const withParameterSets = unit.key ? [...parameterSets, ...nals] : nals;
          const payloads = videoPayloads(withParameterSets);
          payloads.forEach((payload, i) => {
            socket.write(
              rtpPacket(
                channels.get('video') ?? 0,
                96,
                i === payloads.length - 1,
                seqVideo++,
                unit.pts + offset,
                payload,
              ),
            );
          });
        } else if (track === audio && channels.has('audio')) {
          socket.write(
            rtpPacket(
              channels.get('audio') ?? 2,
              97,
              true,
              seqAudio++,
              unit.dts + offset,
              audio.codec === 'opus' ? unit.data : aacPayload(unit.data),
            ),
          );
        }
      }
      timer = setTimeout(send, 10);
    };
    send();
    return () => clearTimeout(timer);
  };

  const listening = await listenForTest(server);
  return {
    ...listening,
    requests,
    connections: () => connections,
  };
}
