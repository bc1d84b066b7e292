/**
 * Viewer analytics overhead: classic HLS segment requests/s from 1,000 viewer sessions with
 * session recording on (the default) against the same with AIRWAVE_VIEWER_ANALYTICS=false, two
 * Airwave processes side by side, each publishing the benchmark file. Every request fetches the
 * newest complete segment (picked again before each run) with `?session=<n>` cycling over 1,000
 * sessions, so the recorder tracks 1,000 open sessions and counts every answer's bytes.
 */
import { loadavg } from 'node:os';
import { measureAlternating } from '../lib/ab-load.js';
import { type LivePublish, withLivePublish } from '../lib/live-publish.js';
import { benchMedia } from '../lib/media-file.js';

/** Section title. */
export const title = 'Viewer analytics: segment requests/s with session recording on vs off';

const DURATION_S = 5;
const WARMUP_S = 2;
const CONNECTIONS = 20;
const SESSIONS = 1000;

/** The newest segment of the stream's classic HLS playlist, as a path. */
async function newestSegment(live: LivePublish): Promise<string> {
  const first = (text: string): string => text.split('\n').find((line) => line && !line.startsWith('#')) ?? '';
  const index = `${live.base}/hls/index.m3u8`;
  const mediaUrl = new URL(first(await (await fetch(index)).text()), index);
  const lines = (await (await fetch(mediaUrl)).text()).split('\n').filter((line) => line && !line.startsWith('#'));
  const segment = lines.at(-1);
  if (!segment) {
    throw new Error(`${mediaUrl} lists no segment`);
  }
  return new URL(segment, mediaUrl).pathname;
}

function target(live: LivePublish) {
  return async () => {
    const path = await newestSegment(live);
    let next = 0;
    return {
      url: live.server.baseUrl,
      connections: CONNECTIONS,
      requests: [
        {
          method: 'GET' as const,
          setupRequest: (request: { path?: string }) => ({ ...request, path: `${path}?session=s${next++ % SESSIONS}` }),
        },
      ],
    };
  };
}

/** Runs the comparison and returns the Markdown. */
export async function run(): Promise<string> {
  const loadBefore = loadavg()[0] ?? 0;
  const { flv } = benchMedia();
  return withLivePublish(flv, (on) =>
    withLivePublish(
      flv,
      async (off) => {
        await newestSegment(on);
        const [withRecording, without] = await measureAlternating(target(on), target(off), {
          warmupS: WARMUP_S,
          durationS: DURATION_S,
        });
        const bad = withRecording.non2xx + withRecording.errors + without.non2xx + without.errors;
        const ratio = withRecording.rps / without.rps;
        return [
          `${CONNECTIONS} connections of autocannon (this process) GET the newest classic HLS segment of a live stream ` +
            `(the benchmark file, ~3 Mb/s) with \`?session=\` cycling over ${SESSIONS} viewer sessions; the segment is ` +
            `picked again before each run. Two Airwave processes run side by side, each with its own publisher: one ` +
            `records sessions (flushing every 2 s to PGlite), one runs with AIRWAVE_VIEWER_ANALYTICS=false. ` +
            `${WARMUP_S} s warm-up each, then ${DURATION_S} s runs in on-off-off-on order, each figure the mean of its two runs. ` +
            `Target: ≥ 0.95×. Measured on a shared, loaded 2-core machine: 1-minute load average ${loadBefore.toFixed(1)} ` +
            `before, ${(loadavg()[0] ?? 0).toFixed(1)} after.`,
          '',
          '| recording | segment req/s | p99 ms |',
          '|---|---:|---:|',
          `| on | ${Math.round(withRecording.rps)} | ${withRecording.p99.toFixed(1)} |`,
          `| off | ${Math.round(without.rps)} | ${without.p99.toFixed(1)} |`,
          '',
          `On / off: **${ratio.toFixed(2)}×** (${ratio >= 0.95 ? 'met' : 'missed'})${bad > 0 ? `; ${bad} failed requests` : ''}.`,
        ].join('\n');
      },
      { AIRWAVE_VIEWER_ANALYTICS: 'false' },
    ),
  );
}
