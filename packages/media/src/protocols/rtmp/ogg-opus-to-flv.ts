/**
 * Opus in Ogg (RFC 7845: OpusHead, OpusTags, then audio packets) as E-RTMP v2 `Opus` tags:
 * SequenceStart carrying the OpusHead, then one CodedFrames tag per packet, timestamps from the
 * samples counted so far (RFC 6716 §3.1 TOC durations, 48 kHz).
 */
import { OPUS_SAMPLE_RATE, opusPacketSamples, parseOpusHead } from '../../codecs/opus.js';
import { ParseError } from '../../errors.js';
import { buildAudioTag } from '../../formats/flv/flv-build.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';
import { readOggPackets } from '../../formats/ogg/ogg.js';
import { type EncodedTrack, fourCcNumber } from './encoded-track.js';

/** Wraps an Ogg Opus file as E-RTMP `Opus` tags. */
export function oggOpusToTrack(bytes: Uint8Array): EncodedTrack {
  const [head, tags, ...audio] = readOggPackets(bytes);
  if (!head || !tags) {
    throw new ParseError('the Ogg stream lacks its OpusHead and OpusTags packets');
  }
  const parsed = parseOpusHead(head.data);
  if (String.fromCharCode(...tags.data.subarray(0, 8)) !== 'OpusTags') {
    throw new ParseError('the second Ogg packet is not OpusTags');
  }
  const out: FlvTag[] = [
    {
      type: FlvTagType.audio,
      timestampMs: 0,
      data: buildAudioTag({ codec: 'opus', packetType: 'config', data: head.data }),
    },
  ];
  let samples = 0;
  for (const packet of audio) {
    out.push({
      type: FlvTagType.audio,
      timestampMs: Math.round((samples * 1000) / OPUS_SAMPLE_RATE),
      data: buildAudioTag({ codec: 'opus', packetType: 'frame', data: packet.data }),
    });
    samples += opusPacketSamples(packet.data);
  }
  return {
    tags: out,
    metadata: { audiocodecid: fourCcNumber('Opus'), audiosamplerate: OPUS_SAMPLE_RATE, audiochannels: parsed.channels },
  };
}
