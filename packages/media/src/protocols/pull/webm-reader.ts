/**
 * The WebM reader of ffmpeg pulls of WebM sources: ffmpeg's live WebM (VP9/AV1 + Opus, which its
 * MPEG-TS cannot carry) into tracks and units through the Matroska demuxer (formats/matroska).
 */
import { MatroskaDemuxer } from '../../formats/matroska/matroska-demuxer.js';
import type { Logger } from '../../ports.js';
import type { TsReader, TsReaderOutput } from './ffmpeg-input.js';

/** Logs at most one drop per this many. */
const DROP_LOG_EVERY = 100;

/** Reads ffmpeg's WebM into `output`. */
export function readWebm(output: TsReaderOutput, log: Logger): TsReader {
  let drops = 0;
  const demuxer = new MatroskaDemuxer({
    setDescription: (description) => output.describe(description),
    write: (unit) => output.unit(unit),
    unsupported: (trackNumber, reason) => log.info({ trackNumber, reason }, 'pulled track left out'),
    dropped: (reason) => {
      if (drops++ % DROP_LOG_EVERY === 0) {
        log.warn({ reason, drops }, 'pulled WebM input dropped');
      }
    },
  });
  return { push: (bytes) => demuxer.push(bytes) };
}
