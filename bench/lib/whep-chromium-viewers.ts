/**
 * A WHEP load generator that costs little per viewer: many RTCPeerConnections in one page of
 * Debian's Chromium (native ICE, DTLS, SRTP, jitter buffer, NACK), each receiving video and audio
 * through an RTCRtpScriptTransform whose worker counts the whole frames the receiver assembled and
 * drops them, so nothing is decoded. "Every frame" is read from the video frames' RTP timestamps:
 * a step of more than 1.5 frame intervals is a frame that never arrived whole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser.js';

/** What the viewers saw in the counting window. */
export interface ChromiumViewersReport {
  /** Viewers whose connection reached `connected`. */
  readonly connected: number;
  /** Whole video frames each viewer's receiver assembled in the window. */
  readonly framesPerViewer: number[];
  /** Video frames each viewer never got whole (gaps in the RTP timestamps) in the window. */
  readonly missingPerViewer: number[];
  /** Opus frames each viewer received in the window. */
  readonly audioFramesPerViewer: number[];
  /** Sums over the viewers of getStats() at the end: packets lost (after NACK) and NACKs sent. */
  readonly packetsLost: number;
  readonly nacks: number;
  /** The SRTP ciphers the DTLS handshakes chose (getStats transport `srtpCipher`). */
  readonly srtpCiphers: string[];
  /** Why viewers failed to start, by message. */
  readonly errors: Record<string, number>;
}

/** The page: viewers on the main thread, the counting transform in one worker. */
const PAGE = `<!doctype html><html><body><script>
const WORKER = \`
const counts = new Map();
let from = Infinity, until = 0, interval = 3000;
function stateOf(viewer) {
  let s = counts.get(viewer);
  if (!s) { s = { frames: 0, missing: 0, audio: 0, last: undefined }; counts.set(viewer, s); }
  return s;
}
onmessage = (event) => {
  if (event.data.type === 'window') { from = event.data.from; until = event.data.until; interval = event.data.interval; }
  else postMessage([...counts].map(([viewer, s]) => ({ viewer, frames: s.frames, missing: s.missing, audio: s.audio })));
};
onrtctransform = (event) => {
  const { viewer, kind } = event.transformer.options;
  const s = stateOf(viewer);
  event.transformer.readable.pipeTo(new WritableStream({
    write(frame) {
      const now = Date.now();
      const counting = now >= from && now < until;
      if (kind === 'audio') { if (counting) s.audio++; return; }
      const ts = frame.getMetadata().rtpTimestamp;
      if (counting) {
        s.frames++;
        if (s.last !== undefined) {
          const step = (ts - s.last) >>> 0;
          if (step > interval * 1.5 && step < 0x80000000) s.missing += Math.round(step / interval) - 1;
        }
      }
      s.last = ts;
    },
  })).catch(() => {});
};
\`;
const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' })));
window.peers = [];
window.errors = {};
function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
    setTimeout(resolve, 3000);
  });
}
async function join(url, viewer) {
  const pc = new RTCPeerConnection();
  window.peers.push(pc);
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  for (const transceiver of pc.getTransceivers()) {
    const kind = transceiver.receiver.track.kind;
    transceiver.receiver.transform = new RTCRtpScriptTransform(worker, { viewer, kind });
  }
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: pc.localDescription.sdp });
  const body = await response.text();
  if (response.status !== 201) throw new Error('WHEP answered ' + response.status);
  await pc.setRemoteDescription({ type: 'answer', sdp: body });
}
window.startViewers = (url, count, rampMs) => {
  for (let i = 0; i < count; i++) {
    setTimeout(() => join(url, i).catch((error) => {
      const key = String(error && error.message || error);
      window.errors[key] = (window.errors[key] || 0) + 1;
    }), (rampMs * i) / count);
  }
};
window.countWindow = (from, until, interval) => worker.postMessage({ type: 'window', from, until, interval });
window.report = async (count) => {
  const counts = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage({ type: 'report' });
  });
  const frames = new Array(count).fill(0), missing = new Array(count).fill(0), audio = new Array(count).fill(0);
  for (const c of counts) { frames[c.viewer] = c.frames; missing[c.viewer] = c.missing; audio[c.viewer] = c.audio; }
  let packetsLost = 0, nacks = 0, connected = 0;
  const ciphers = new Set();
  for (const pc of window.peers) {
    if (pc.connectionState === 'connected') connected++;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp') { packetsLost += s.packetsLost || 0; nacks += s.nackCount || 0; }
      if (s.type === 'transport' && s.srtpCipher) ciphers.add(s.srtpCipher);
    });
  }
  return { connected, framesPerViewer: frames, missingPerViewer: missing, audioFramesPerViewer: audio, packetsLost, nacks, srtpCiphers: [...ciphers], errors: window.errors };
};
window.closeAll = () => { for (const pc of window.peers) pc.close(); };
</script></body></html>`;

/** A Chromium holding `count` WHEP viewers of one URL. */
export class ChromiumWhepViewers {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly server: Server,
    private readonly count: number,
  ) {}

  /** Launches Chromium and starts `count` viewers of `whepUrl`, spread over `rampMs`. */
  static async start(whepUrl: string, count: number, rampMs: number): Promise<ChromiumWhepViewers> {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium(['--disable-renderer-backgrounding', '--disable-background-timer-throttling']);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.evaluate(`window.startViewers(${JSON.stringify(whepUrl)}, ${count}, ${rampMs})`);
    return new ChromiumWhepViewers(browser, page, server, count);
  }

  /** Counts frames that arrive between the two Date.now() times; `interval` is the RTP frame interval. */
  async countBetween(from: number, until: number, interval = 3000): Promise<void> {
    await this.page.evaluate(`window.countWindow(${from}, ${until}, ${interval})`);
  }

  /** What the viewers saw. */
  report(): Promise<ChromiumViewersReport> {
    return this.page.evaluate(`window.report(${this.count})`) as Promise<ChromiumViewersReport>;
  }

  /** Closes the viewers, Chromium and the page's server. */
  async close(): Promise<void> {
    await this.page.evaluate('window.closeAll()').catch(() => undefined);
    await this.browser.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
