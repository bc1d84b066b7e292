/**
 * Glass-to-glass latency of WebRTC playback, read from a clock coded into the pixels: the source
 * draws the wall clock (ms modulo 2^20) as 20 black/white blocks; the WHEP page in Chromium reads
 * them back from every presented frame (requestVideoFrameCallback) and subtracts. WHIP → WHEP:
 * a Chromium canvas published over WHIP. RTMP → WHEP: Node draws the clock into raw frames piped
 * to ffmpeg (x264 ultrafast zerolatency, no B-frames) publishing RTMP. Same machine, same clock.
 */
import { spawn } from 'node:child_process';
import {
  drawClockGray,
  launchWebRtcChromium,
  playWhep,
  publishClock,
  startClientPage,
  startClockReader,
  takeClockSamples,
} from '../../e2e/support/webrtc-clients.js';
import { createStreams, startAirwave } from '../lib/airwave-server.js';
import { stopChild } from '../lib/child-process.js';
import { percentile } from '../lib/percentile.js';

/** Section title in RESULTS.md. */
export const title = 'WebRTC glass-to-glass latency (pixel clock)';

const SECONDS = Number(process.env.AIRWAVE_BENCH_WEBRTC_SECONDS ?? 60);
const WARMUP_MS = 5000;

/** Runs both paths and returns the Markdown table. */
export async function run(): Promise<string> {
  const server = await startAirwave();
  const browser = await launchWebRtcChromium();
  const client = await startClientPage();
  const rows: string[] = [];
  try {
    const [whip, rtmp] = await createStreams(server, 2);
    if (!whip || !rtmp) {
      throw new Error('streams not created');
    }
    const publisher = await publishClock(browser, client.url, `${server.baseUrl}/webrtc/${whip.streamKey}`);
    if (publisher.result.status !== 201) {
      throw new Error(`WHIP publish failed: ${publisher.result.status} ${publisher.result.body}`);
    }
    rows.push(
      await measure('WHIP (Chromium canvas) → WHEP (Chromium)', `${server.baseUrl}/play/${whip.playbackId}/webrtc`),
    );
    await publisher.page.close();
    const width = 640;
    const height = 360;
    const ffmpeg = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-s',
        `${width}x${height}`,
        '-r',
        '30',
        '-i',
        'pipe:0',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-bf',
        '0',
        '-g',
        '30',
        '-pix_fmt',
        'yuv420p',
        '-f',
        'flv',
        rtmp.rtmpUrl,
      ],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    const frame = new Uint8Array(width * height).fill(128);
    const pacer = setInterval(() => {
      drawClockGray(frame, width);
      ffmpeg.stdin.write(frame);
    }, 1000 / 30);
    try {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      rows.push(
        await measure(
          'RTMP (ffmpeg x264 zerolatency) → WHEP (Chromium)',
          `${server.baseUrl}/play/${rtmp.playbackId}/webrtc`,
        ),
      );
    } finally {
      clearInterval(pacer);
      ffmpeg.stdin.end();
      await stopChild(ffmpeg);
    }
  } finally {
    await browser.close();
    await client.close();
    await server.stop();
  }
  return [
    `Measured on a shared, loaded machine (2 cores, other engineers' jobs running); loopback; ${SECONDS} s per path after a ${WARMUP_MS / 1000} s warm-up; one sample per presented frame.`,
    '',
    '| path | frames | p50 | p90 | p99 | max |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Target: p99 ≤ 250 ms for WHIP → WHEP on loopback (SRS publishes ~80 ms). The RTMP path includes x264 encoding and FLV muxing by ffmpeg.',
  ].join('\n');

  async function measure(label: string, whepUrl: string): Promise<string> {
    const viewer = await playWhep(browser, client.url, whepUrl);
    if (viewer.result.status !== 201) {
      throw new Error(`WHEP play failed: ${viewer.result.status} ${viewer.result.body}`);
    }
    await startClockReader(viewer.page);
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    await takeClockSamples(viewer.page);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const samples = (await takeClockSamples(viewer.page)).filter((value) => value < 10_000);
    await viewer.page.close();
    if (samples.length === 0) {
      throw new Error(`${label}: no frame decoded`);
    }
    const f = (p: number) => `${Math.round(percentile(samples, p))} ms`;
    return `| ${label} | ${samples.length} | ${f(50)} | ${f(90)} | ${f(99)} | ${Math.round(Math.max(...samples))} ms |`;
  }
}
