/**
 * The MPEG-TS reader of ffmpeg pulls: ffmpeg's MPEG-TS output (ISO/IEC 13818-1) into tracks and
 * units through the mpegts demuxer (formats/mpegts). Streams the demuxer leaves out are logged
 * once; dropped input is counted by the demuxer and logged at a bounded rate.
 */
import { TsDemuxer } from '../../formats/mpegts/ts-demuxer.js';
import type { Logger } from '../../ports.js';
import type { TsReader, TsReaderOutput } from './ffmpeg-input.js';

/** Logs at most one drop per this many. */
const DROP_LOG_EVERY = 100;

/** Reads ffmpeg's MPEG-TS into `output`. */
export function readTransportStream(output: TsReaderOutput, log: Logger): TsReader {
  let drops = 0;
  const demuxer = new TsDemuxer({
    setDescription: (description) => output.describe(description),
    write: (unit) => output.unit(unit),
    unsupported: (pid, reason) => log.info({ pid, reason }, 'pulled stream left out'),
    dropped: (reason) => {
      if (drops++ % DROP_LOG_EVERY === 0) {
        log.warn({ reason, drops }, 'pulled MPEG-TS input dropped');
      }
    },
  });
  return { push: (bytes) => demuxer.push(bytes) };
}
