/**
 * Real WebRTC clients for e2e tests and benchmarks: Debian's Chromium with a fake capture device
 * fed from files ffmpeg made (`--use-file-for-fake-video-capture`), a local page whose script
 * publishes over WHIP and plays over WHEP with the browser's own RTCPeerConnection, and readers
 * of the browser's getStats().
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { waitFor } from './processes.js';

/** Makes a short Y4M test pattern and a WAV tone in `dir` (ffmpeg, faster than real time). */
export async function makeFakeCapture(
  dir: string,
  width = 640,
  height = 360,
): Promise<{ video: string; audio: string }> {
  const video = join(dir, 'capture.y4m');
  const audio = join(dir, 'capture.wav');
  const run = promisify(execFile);
  const lavfi = (source: string, output: readonly string[]) =>
    run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', '4', ...output]);
  await lavfi(`testsrc2=size=${width}x${height}:rate=30`, ['-pix_fmt', 'yuv420p', video]);
  await lavfi('sine=frequency=440:sample_rate=48000', ['-ac', '2', audio]);
  return { video, audio };
}

/** Headless Chromium whose camera and microphone are the given files (or Chromium's own pattern). */
export function launchWebRtcChromium(capture?: { video: string; audio: string }): Promise<Browser> {
  return launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    ...(capture
      ? [`--use-file-for-fake-video-capture=${capture.video}`, `--use-file-for-fake-audio-capture=${capture.audio}`]
      : []),
  ]);
}

/** Bits of the pixel clock (milliseconds modulo 2^20) drawn as blocks across the top 48 rows. */
export const CLOCK_BITS = 20;

/** Draws the pixel clock into a gray 640×360 frame (one byte per pixel). */
export function drawClockGray(frame: Uint8Array, width: number, now = Date.now()): void {
  const value = now & ((1 << CLOCK_BITS) - 1);
  const block = width / CLOCK_BITS;
  for (let y = 0; y < 48; y++) {
    for (let x = 0; x < width; x++) {
      const bit = Math.floor(x / block);
      frame[y * width + x] = (value >> (CLOCK_BITS - 1 - bit)) & 1 ? 255 : 0;
    }
  }
}

/** The page's WHIP/WHEP client (plain browser JavaScript). */
const CLIENT = `
const video = document.getElementById('v');
function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
    setTimeout(resolve, 3000);
  });
}
function connected(pc, ms) {
  return new Promise((resolve) => {
    if (pc.connectionState === 'connected') return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') { clearTimeout(timer); resolve(true); }
    });
  });
}
function fragment(pc) {
  const sdp = pc.localDescription.sdp;
  const ufrag = /a=ice-ufrag:(\\S+)/.exec(sdp)[1];
  const pwd = /a=ice-pwd:(\\S+)/.exec(sdp)[1];
  const lines = ['a=ice-ufrag:' + ufrag, 'a=ice-pwd:' + pwd];
  const sections = sdp.split(/\\r\\nm=/).slice(1);
  for (const section of sections) {
    const mid = /a=mid:(\\S+)/.exec(section);
    const candidates = section.split('\\r\\n').filter((l) => l.startsWith('a=candidate:'));
    lines.push('m=' + section.split('\\r\\n')[0]);
    if (mid) lines.push('a=mid:' + mid[1]);
    lines.push(...candidates);
  }
  lines.push('a=end-of-candidates');
  return lines.join('\\r\\n') + '\\r\\n';
}
async function negotiate(pc, url, opts) {
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  if (!opts.trickle) await gathered(pc);
  const headers = { 'content-type': 'application/sdp' };
  if (opts.bearer) headers.authorization = 'Bearer ' + opts.bearer;
  const response = await fetch(url, { method: 'POST', headers, body: pc.localDescription.sdp });
  const body = await response.text();
  if (response.status !== 201) return { status: response.status, body };
  const location = new URL(response.headers.get('location'), url).href;
  await pc.setRemoteDescription({ type: 'answer', sdp: body });
  let patchStatus;
  if (opts.trickle) {
    await gathered(pc);
    const patch = await fetch(location, { method: 'PATCH', headers: { 'content-type': 'application/trickle-ice-sdpfrag' }, body: fragment(pc) });
    patchStatus = patch.status;
  }
  const ok = await connected(pc, 20000);
  return { status: response.status, location, patchStatus, connected: ok, link: response.headers.get('link'), answer: body };
}
window.whipPublish = async (url, opts) => {
  const media = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360, frameRate: 30 }, audio: true });
  const pc = new RTCPeerConnection();
  window.publisher = pc;
  for (const track of media.getTracks()) {
    if (track.kind === 'video') track.contentHint = 'detail';
    const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
    if (track.kind === 'video' && opts.videoCodec) {
      const wanted = 'video/' + opts.videoCodec.toLowerCase();
      transceiver.setCodecPreferences(RTCRtpSender.getCapabilities('video').codecs.filter((c) => c.mimeType.toLowerCase() === wanted));
    }
  }
  return negotiate(pc, url, opts);
};
window.whepPlay = async (url, opts) => {
  const pc = new RTCPeerConnection();
  window.player = pc;
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const stream = new MediaStream();
  pc.ontrack = (event) => { stream.addTrack(event.track); video.srcObject = stream; video.play().catch(() => {}); };
  return negotiate(pc, url, opts);
};
window.playerStats = async () => {
  const out = { video: {}, audio: {} };
  if (!window.player) return out;
  (await window.player.getStats()).forEach((s) => {
    if (s.type === 'transport' && s.srtpCipher) out.srtpCipher = s.srtpCipher;
    if (s.type === 'inbound-rtp' && s.kind === 'video') out.video = { framesDecoded: s.framesDecoded || 0, keyFramesDecoded: s.keyFramesDecoded || 0, frameWidth: s.frameWidth || 0, frameHeight: s.frameHeight || 0, packetsLost: s.packetsLost || 0 };
    if (s.type === 'inbound-rtp' && s.kind === 'audio') out.audio = { packetsReceived: s.packetsReceived || 0, totalSamplesReceived: s.totalSamplesReceived || 0 };
  });
  return out;
};
const CLOCK_BITS = 20;
window.drawClock = (ctx, width) => {
  const now = Date.now() & ((1 << CLOCK_BITS) - 1);
  const block = width / CLOCK_BITS;
  for (let bit = 0; bit < CLOCK_BITS; bit++) {
    ctx.fillStyle = (now >> (CLOCK_BITS - 1 - bit)) & 1 ? '#fff' : '#000';
    ctx.fillRect(bit * block, 0, block, 48);
  }
};
window.whipPublishClock = async (url, opts) => {
  const canvas = document.createElement('canvas');
  canvas.width = 640; canvas.height = 360;
  const ctx = canvas.getContext('2d');
  let frame = 0;
  setInterval(() => {
    ctx.fillStyle = '#808080'; ctx.fillRect(0, 48, 640, 312);
    ctx.fillStyle = '#f00'; ctx.fillRect((frame++ * 8) % 640, 100, 40, 40);
    window.drawClock(ctx, 640);
  }, 1000 / 60);
  const track = canvas.captureStream(30).getVideoTracks()[0];
  const pc = new RTCPeerConnection();
  window.publisher = pc;
  pc.addTransceiver(track, { direction: 'sendonly' });
  return negotiate(pc, url, opts);
};
window.clockSamples = [];
window.readClock = () => {
  const canvas = document.createElement('canvas');
  canvas.width = 640; canvas.height = 360;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const block = 640 / CLOCK_BITS;
  const onFrame = () => {
    if (video.videoWidth > 0) {
      ctx.drawImage(video, 0, 0, 640, 360);
      const row = ctx.getImageData(0, 24, 640, 1).data;
      let value = 0;
      for (let bit = 0; bit < CLOCK_BITS; bit++) {
        const x = Math.floor(bit * block + block / 2);
        value = (value << 1) | (row[x * 4] > 128 ? 1 : 0);
      }
      let latency = (Date.now() & ((1 << CLOCK_BITS) - 1)) - value;
      if (latency < 0) latency += 1 << CLOCK_BITS;
      window.clockSamples.push(latency);
    }
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
};
window.closeAll = () => { window.publisher && window.publisher.close(); window.player && window.player.close(); };
`;

/** Serves the client page on 127.0.0.1:0 (another origin than the server: CORS is exercised). */
export async function startClientPage(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><html><body><video id="v" muted autoplay playsinline></video><script>${CLIENT}</script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a WHIP or WHEP negotiation in the page returned. */
export interface Negotiated {
  readonly status: number;
  readonly body?: string;
  readonly location?: string;
  readonly patchStatus?: number;
  readonly connected?: boolean;
  readonly link?: string | null;
  /** The server's answer SDP. */
  readonly answer?: string;
}

/** Options of a negotiation. */
export interface NegotiateOptions {
  readonly bearer?: string;
  /** POST the offer before gathering, then PATCH the candidates. */
  readonly trickle?: boolean;
  /** WHIP: offer only this video codec (`AV1`, `VP8`, …) instead of the browser's list. */
  readonly videoCodec?: string;
}

/** Opens a page of the client and runs one of its negotiations (`whipPublish`, `whepPlay`, `whipPublishClock`). */
async function negotiateIn(
  browser: Browser,
  pageUrl: string,
  action: string,
  url: string,
  options: NegotiateOptions,
): Promise<{ page: Page; result: Negotiated }> {
  const page = await browser.newPage();
  await page.goto(pageUrl);
  const result = (await page.evaluate(
    `window.${action}(${JSON.stringify(url)}, ${JSON.stringify(options)})`,
  )) as Negotiated;
  return { page, result };
}

/** Opens a page of the client and publishes the fake camera over WHIP to `url`. */
export function publishWhip(
  browser: Browser,
  pageUrl: string,
  url: string,
  options: NegotiateOptions = {},
): Promise<{ page: Page; result: Negotiated }> {
  return negotiateIn(browser, pageUrl, 'whipPublish', url, options);
}

/** Opens a page of the client and plays `url` over WHEP. */
export function playWhep(
  browser: Browser,
  pageUrl: string,
  url: string,
  options: NegotiateOptions = {},
): Promise<{ page: Page; result: Negotiated }> {
  return negotiateIn(browser, pageUrl, 'whepPlay', url, options);
}

/** The WHEP page's inbound statistics. */
export interface PlayerStats {
  readonly video: {
    framesDecoded?: number;
    keyFramesDecoded?: number;
    frameWidth?: number;
    frameHeight?: number;
    packetsLost?: number;
  };
  readonly audio: { packetsReceived?: number; totalSamplesReceived?: number };
  /** The SRTP protection profile DTLS chose (getStats transport `srtpCipher`). */
  readonly srtpCipher?: string;
}

/** Reads getStats() of the page's player. */
export function playerStats(page: Page): Promise<PlayerStats> {
  return page.evaluate('window.playerStats()') as Promise<PlayerStats>;
}

/** Waits (up to `timeoutMs`) until the WHEP page decoded `frames` video frames and received a second of Opus audio. */
export function decodesVideoAndAudio(page: Page, frames = 30, timeoutMs = 30_000): Promise<PlayerStats> {
  return waitFor(
    `${frames} frames decoded and Opus audio received`,
    async () => {
      const s = await playerStats(page);
      return (s.video.framesDecoded ?? 0) >= frames && (s.audio.totalSamplesReceived ?? 0) > 48_000 ? s : undefined;
    },
    timeoutMs,
    250,
  );
}

/** Publishes a canvas showing the pixel clock over WHIP from a new page. */
export function publishClock(
  browser: Browser,
  pageUrl: string,
  url: string,
  options: NegotiateOptions = {},
): Promise<{ page: Page; result: Negotiated }> {
  return negotiateIn(browser, pageUrl, 'whipPublishClock', url, options);
}

/** Starts reading the pixel clock of every frame the WHEP page presents. */
export async function startClockReader(page: Page): Promise<void> {
  await page.evaluate('window.readClock()');
}

/** Latencies (ms) measured so far by the page's clock reader; clears them. */
export async function takeClockSamples(page: Page): Promise<number[]> {
  return (await page.evaluate('window.clockSamples.splice(0)')) as number[];
}
