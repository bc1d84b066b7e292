/**
 * AAC in ADTS (ISO/IEC 14496-3 §1.A.2) as E-RTMP v2 `mp4a` ExAudioTagHeader tags: SequenceStart
 * with the AudioSpecificConfig the first header describes, then one CodedFrames tag per raw frame.
 */
import { adtsToAudioSpecificConfig, parseAdtsFrames } from '../../codecs/aac.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { buildAudioTag } from '../../formats/flv/flv-build.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';
import { type EncodedTrack, fourCcNumber } from './encoded-track.js';

/** Wraps an ADTS stream as E-RTMP `mp4a` tags, timestamps from the frame count (1024 samples each). */
export function adtsToTrack(bytes: Uint8Array): EncodedTrack {
  const { frames, consumed } = parseAdtsFrames(bytes);
  const first = frames[0];
  if (!first) {
    throw new ParseError('the ADTS stream has no complete frame');
  }
  if (consumed !== bytes.length) {
    throw new ParseError(`the ADTS stream ends with ${bytes.length - consumed} bytes of a truncated frame`, consumed);
  }
  const config = first.config;
  const tags: FlvTag[] = [
    {
      type: FlvTagType.audio,
      timestampMs: 0,
      data: buildAudioTag({
        codec: 'aac',
        packetType: 'config',
        data: adtsToAudioSpecificConfig(config),
        legacy: false,
      }),
    },
  ];
  frames.forEach((frame, index) => {
    if (frame.rawDataBlocks !== 1) {
      throw new UnsupportedError(`ADTS frame ${index} holds ${frame.rawDataBlocks} raw data blocks (1 only)`);
    }
    if (frame.config !== config) {
      throw new UnsupportedError(`ADTS frame ${index} changes the audio configuration`);
    }
    tags.push({
      type: FlvTagType.audio,
      timestampMs: Math.round((index * config.samplesPerFrame * 1000) / config.sampleRate),
      data: buildAudioTag({ codec: 'aac', packetType: 'frame', data: frame.payload, legacy: false }),
    });
  });
  return {
    tags,
    metadata: {
      audiocodecid: fourCcNumber('mp4a'),
      audiosamplerate: config.sampleRate,
      audiochannels: config.channels,
    },
  };
}
