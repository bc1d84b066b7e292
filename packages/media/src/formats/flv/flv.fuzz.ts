/** Fuzz targets of the FLV tag reader and tag-body parsers (seeds: tags of the E-FLV fixture plus legacy AVC/AAC). */
import { existsSync, readFileSync } from 'node:fs';
import { EFLV_FIXTURES } from '../../testing/eflv-fixtures.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { encodeAmf0 } from '../amf0/amf0-encode.js';
import { Amf0EcmaArray, amf0Object } from '../amf0/amf0-value.js';
import { buildAudioTag, buildVideoTag } from './flv-build.js';
import { parseMediaTag } from './flv-media.js';
import { parseScriptTag } from './flv-script.js';
import { FlvTagType, readFlvTags } from './flv-tag.js';
import { encodeFlvHeader, encodeFlvTag } from './flv-writer.js';

const FIXTURE = `${EFLV_FIXTURES}/testsrc.flv`;

function seedBodies(): Uint8Array[] {
  const bodies: Uint8Array[] = [
    buildVideoTag({
      codec: 'h264',
      packetType: 'frame',
      key: true,
      compositionOffsetMs: 66,
      data: Uint8Array.of(0, 0, 0, 1, 0x65),
    }),
    buildVideoTag({ codec: 'h265', packetType: 'config', key: true, legacy: false, data: Uint8Array.of(1, 1, 0x60) }),
    buildAudioTag({ codec: 'aac', packetType: 'config', data: Uint8Array.of(0x12, 0x10) }),
    Uint8Array.of(0x96, 0x11, ...Buffer.from('av01'), 0, 0, 0, 1, 0xa, 1, 0, 0, 1, 0xb),
    Uint8Array.of(0x97, 2, 0x01, 0x86, 0xa0, 0x01, ...Buffer.from('av01'), 0xaa),
  ];
  if (existsSync(FIXTURE)) {
    for (const tag of readFlvTags(readFileSync(FIXTURE)).slice(0, 12)) {
      bodies.push(Uint8Array.of(tag.type, ...tag.data.subarray(0, 200)));
    }
  }
  return bodies;
}

function parseBody(input: Uint8Array): void {
  const type = input[0];
  const body = input.subarray(1);
  if (type === FlvTagType.script) {
    parseScriptTag(body);
  } else {
    parseMediaTag(type === FlvTagType.audio ? FlvTagType.audio : FlvTagType.video, body, 0);
  }
}

/** Tag framing of a whole file, and audio/video/script tag bodies (first byte picks the parser). */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'flv-tag-reader',
    seeds: [
      new Uint8Array(
        Buffer.concat([
          encodeFlvHeader({ audio: true, video: true }),
          encodeFlvTag({
            type: FlvTagType.script,
            timestampMs: 0,
            data: encodeAmf0('onMetaData', new Amf0EcmaArray(amf0Object({ width: 640 }))),
          }),
          encodeFlvTag({ type: FlvTagType.video, timestampMs: 33, data: Uint8Array.of(0x17, 1, 0, 0, 0, 1) }),
        ]),
      ),
    ],
    run(input) {
      readFlvTags(input);
    },
  },
  {
    name: 'flv-tag-body',
    seeds: [
      ...seedBodies(),
      Uint8Array.of(FlvTagType.script, ...encodeAmf0('@setDataFrame', 'onMetaData', amf0Object({}))),
    ],
    run: parseBody,
  },
];
