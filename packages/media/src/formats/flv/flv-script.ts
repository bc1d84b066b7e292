/**
 * Script data tags (FLV v10.1 Annex E.4.4: SCRIPTDATA as AMF0) and the onMetaData hints an ingest
 * uses (width, height, framerate), including RTMP's `@setDataFrame` wrapper.
 */
import { decodeAmf0 } from '../amf0/amf0-decode.js';
import { type Amf0Value, amf0Properties } from '../amf0/amf0-value.js';

/** What onMetaData said about the stream (all optional: encoders differ). */
export interface FlvMetadataHints {
  readonly width?: number;
  readonly height?: number;
  readonly framerate?: number;
  readonly videoDataRate?: number;
  readonly audioDataRate?: number;
  readonly audioSampleRate?: number;
  readonly encoder?: string;
  /** Whether onMetaData announced a video track (`videocodecid`); undefined without onMetaData. */
  readonly hasVideo?: boolean;
  /** Whether onMetaData announced an audio track (`audiocodecid`); undefined without onMetaData. */
  readonly hasAudio?: boolean;
}

/** A decoded script tag: its handler name (`onMetaData`) and the values after it. */
export interface FlvScriptData {
  readonly name: string;
  readonly values: readonly Amf0Value[];
}

/** Decodes a script tag body; the `@setDataFrame` prefix RTMP publishers add is removed. */
export function parseScriptTag(body: Uint8Array): FlvScriptData {
  const values = decodeAmf0(body, { maxDepth: 8, maxValues: 4096 });
  let at = 0;
  if (values[0] === '@setDataFrame') {
    at = 1;
  }
  const name = values[at];
  return { name: typeof name === 'string' ? name : '', values: values.slice(at + 1) };
}

/** Extracts hints from an onMetaData script tag; empty when the tag is something else. */
export function metadataHints(script: FlvScriptData): FlvMetadataHints {
  if (script.name !== 'onMetaData') {
    return {};
  }
  const props = amf0Properties(script.values[0]);
  if (!props) {
    return {};
  }
  const num = (key: string): number | undefined => {
    const value = props[key];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const hints: Record<string, number | string | boolean> = {
    hasVideo: props.videocodecid !== undefined || props.width !== undefined,
    hasAudio: props.audiocodecid !== undefined || props.audiosamplerate !== undefined,
  };
  const pairs: [keyof FlvMetadataHints, number | undefined][] = [
    ['width', num('width')],
    ['height', num('height')],
    ['framerate', num('framerate') ?? num('videoframerate')],
    ['videoDataRate', num('videodatarate')],
    ['audioDataRate', num('audiodatarate')],
    ['audioSampleRate', num('audiosamplerate')],
  ];
  for (const [key, value] of pairs) {
    if (value !== undefined) {
      hints[key] = value;
    }
  }
  const encoder = props.encoder;
  if (typeof encoder === 'string') {
    hints.encoder = encoder;
  }
  return hints as FlvMetadataHints;
}
