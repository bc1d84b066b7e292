/**
 * The MPEG-TS reader of ffmpeg pulls: ffmpeg's MPEG-TS output (ISO/IEC 13818-1) into tracks and
 * units through the mpegts demuxer of formats/mpegts. Until that demuxer lands (branch srt), this
 * refuses with a clear UnsupportedError, so ffmpeg pulls end with that reason.
 */
import { UnsupportedError } from '../../errors.js';
import type { TsReader, TsReaderOutput } from './ffmpeg-input.js';

/** Reads ffmpeg's MPEG-TS into `output`. */
export function readTransportStream(_output: TsReaderOutput): TsReader {
  return {
    push() {
      throw new UnsupportedError('the MPEG-TS demuxer is not available in this build');
    },
  };
}
