/**
 * A progressive fragmented-MP4 viewer (ISO/IEC 14496-12 movie fragments over one chunked HTTP
 * response): reads the live body until a deadline and reports each fragment's video samples as
 * its mdat completes.
 */
import { BoxStream, fragmentTiming, type TrafTiming, videoTrackId } from './fmp4-timing.js';
import { wallNow } from './paced-publisher.js';

/** Reads `url` until `until` (Date.now() ms); calls `onFragment` with the video traf and arrival time. */
export async function readLiveMp4(
  url: string,
  until: number,
  onFragment: (video: TrafTiming, at: number) => void,
): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, until - Date.now()));
  const boxes = new BoxStream();
  let videoId: number | undefined;
  let moof: Uint8Array | undefined;
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (response.status !== 200) {
      throw new Error(`${url} answered ${response.status}`);
    }
    const reader = response.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) {
        break;
      }
      for (const box of boxes.push(next.value)) {
        if (box.type === 'moov') {
          videoId = videoTrackId(box.bytes);
        } else if (box.type === 'moof') {
          moof = box.bytes;
        } else if (box.type === 'mdat' && moof) {
          const video = fragmentTiming(moof).find((traf) => traf.trackId === videoId);
          if (video) {
            onFragment(video, wallNow());
          }
          moof = undefined;
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      throw error;
    }
  } finally {
    clearTimeout(timer);
  }
}
