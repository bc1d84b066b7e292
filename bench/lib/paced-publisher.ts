/**
 * Our own RTMP publisher (`RtmpPublisher`) sending the FLV tags of the benchmark file in real time,
 * pass after pass with continuing timestamps, and recording when each video frame was written to
 * the socket — the "arrival on the RTMP socket" that latency is measured from.
 */
import { readFileSync } from 'node:fs';
import { type FlvTag, FlvTagType, readFlvTags } from '@airwave/media/formats/flv/flv-tag';
import { RtmpPublisher } from '@airwave/media/protocols/rtmp/client';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/** What a running paced publisher knows. */
export interface PacedPublisher {
  /** Wall time (wallNow) at which the video frame with this RTMP timestamp was written. */
  readonly videoSent: ReadonlyMap<number, number>;
  /** RTMP timestamps of the video keyframes sent, in order. */
  readonly keyframes: readonly number[];
  /** Stops sending and closes the connection. */
  stop(): Promise<void>;
}

/** True for the sequence headers (AVC config, AAC config) and script data: sent on the first pass only. */
function isHeader(tag: FlvTag): boolean {
  if (tag.type === FlvTagType.script) {
    return true;
  }
  return (tag.type === FlvTagType.video || tag.type === FlvTagType.audio) && tag.data[1] === 0;
}

/** Connects to `url` and publishes `flvFile` in a loop at its own pace until stopped. */
export async function startPacedPublisher(url: string, flvFile: string): Promise<PacedPublisher> {
  const tags = readFlvTags(readFileSync(flvFile));
  const headers = tags.filter(isHeader);
  // Without the AVC end-of-sequence tag ffmpeg writes at the end of the file: the loop goes on.
  const media = tags.filter((tag) => !isHeader(tag) && !(tag.type === FlvTagType.video && tag.data[1] === 2));
  const last = media.reduce((max, tag) => Math.max(max, tag.timestampMs), 0);
  const passMs = last + Math.round(1000 / 30);
  const publisher = new RtmpPublisher();
  await publisher.connect(url);
  for (const tag of headers) {
    await publisher.writeTag(tag);
  }
  const videoSent = new Map<number, number>();
  const keyframes: number[] = [];
  const startedAt = performance.now();
  let index = 0;
  let pass = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pump = (): void => {
    timer = undefined;
    const elapsed = performance.now() - startedAt;
    for (;;) {
      if (stopped) {
        return;
      }
      const tag = media[index] as FlvTag;
      const timestampMs = tag.timestampMs + pass * passMs;
      if (timestampMs > elapsed) {
        timer = setTimeout(pump, Math.max(0, timestampMs - (performance.now() - startedAt)));
        return;
      }
      void publisher.writeTag({ ...tag, timestampMs }).catch(() => undefined);
      if (tag.type === FlvTagType.video) {
        videoSent.set(timestampMs, wallNow());
        if (tag.data[0] !== undefined && tag.data[0] >> 4 === 1) {
          keyframes.push(timestampMs);
        }
      }
      index++;
      if (index === media.length) {
        index = 0;
        pass++;
      }
    }
  };
  pump();
  return {
    videoSent,
    keyframes,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await publisher.close().catch(() => undefined);
    },
  };
}
