#!/usr/bin/env -S node --conditions=source --import tsx
/**
 * Publishes media to an RTMP(S) server with our own E-RTMP publisher, for what ffmpeg 5.1 cannot
 * send (E-FLV AV1/Opus files, HEVC). Usage:
 *   publish-flv --url rtmp://host:1935/live/<key> --file in.flv [--realtime] [--loop]
 *   publish-flv --url rtmp://host:1935/live/<key> --hevc-annexb in.hevc --fps 30 [--realtime] [--loop]
 * `--insecure` accepts a self-signed certificate for rtmps://. The Annex B input must have no
 * B-frames (raw H.265 carries no timestamps; frames are sent in decode order at --fps).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildHvcC, describeHvcC, H265_NAL, isKeyframeNal, nalType } from '@airwave/media/codecs/h265';
import { splitAnnexB, toLengthPrefixed } from '@airwave/media/codecs/nal';
import { encodeAmf0 } from '@airwave/media/formats/amf0/amf0-encode';
import { Amf0EcmaArray, amf0Object } from '@airwave/media/formats/amf0/amf0-value';
import { buildVideoTag } from '@airwave/media/formats/flv/flv-build';
import { type FlvTag, FlvTagType, readFlvTags } from '@airwave/media/formats/flv/flv-tag';
import { RtmpPublisher } from '@airwave/media/protocols/rtmp/client';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    file: { type: 'string' },
    'hevc-annexb': { type: 'string' },
    fps: { type: 'string', default: '30' },
    realtime: { type: 'boolean', default: false },
    loop: { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
});

/** `hvc1` as the number E-RTMP onMetaData uses for videocodecid. */
const HVC1_FOURCC = 0x68766331;

function usage(message: string): never {
  console.error(`publish-flv: ${message}`);
  console.error(
    'usage: publish-flv --url rtmp://host:port/live/<key> (--file in.flv | --hevc-annexb in.hevc --fps 30) [--realtime] [--loop] [--insecure]',
  );
  process.exit(2);
}

/** Groups H.265 Annex B NAL units into access units (H.265 §7.4.2.4.4) and wraps them as E-RTMP hvc1 tags. */
function hevcTags(bytes: Uint8Array, fps: number): FlvTag[] {
  const vps: Uint8Array[] = [];
  const sps: Uint8Array[] = [];
  const pps: Uint8Array[] = [];
  const units: { nals: Uint8Array[]; key: boolean }[] = [];
  let current: { nals: Uint8Array[]; key: boolean; vcl: boolean } | undefined;
  for (const nal of splitAnnexB(bytes)) {
    const type = nalType(nal);
    const vcl = type < 32;
    const firstSlice = vcl && ((nal[2] ?? 0) & 0x80) !== 0;
    const startsAu =
      (vcl && firstSlice) || type === H265_NAL.aud || (type >= 32 && type <= 34) || type === H265_NAL.prefixSei;
    if (!current || (current.vcl && startsAu)) {
      current = { nals: [], key: false, vcl: false };
      units.push(current);
    }
    if (type === H265_NAL.vps || type === H265_NAL.sps || type === H265_NAL.pps) {
      const list = type === H265_NAL.vps ? vps : type === H265_NAL.sps ? sps : pps;
      if (list.length === 0) {
        list.push(nal);
      }
      continue;
    }
    if (type === H265_NAL.aud) {
      continue;
    }
    current.nals.push(nal);
    current.vcl ||= vcl;
    current.key ||= vcl && isKeyframeNal(type);
  }
  if (vps.length === 0 || sps.length === 0 || pps.length === 0) {
    usage('the H.265 stream has no VPS/SPS/PPS');
  }
  const config = buildHvcC(vps, sps, pps);
  const description = describeHvcC(config);
  const metadata = new Amf0EcmaArray(
    amf0Object({ width: description.width, height: description.height, framerate: fps, videocodecid: HVC1_FOURCC }),
  );
  const tags: FlvTag[] = [
    { type: FlvTagType.script, timestampMs: 0, data: encodeAmf0('onMetaData', metadata) },
    {
      type: FlvTagType.video,
      timestampMs: 0,
      data: buildVideoTag({ codec: 'h265', packetType: 'config', key: true, data: config }),
    },
  ];
  units
    .filter((unit) => unit.nals.length > 0)
    .forEach((unit, index) => {
      tags.push({
        type: FlvTagType.video,
        timestampMs: Math.round((index * 1000) / fps),
        data: buildVideoTag({ codec: 'h265', packetType: 'frame', key: unit.key, data: toLengthPrefixed(unit.nals) }),
      });
    });
  return tags;
}

async function main(): Promise<void> {
  if (!values.url) {
    usage('--url is required');
  }
  let tags: FlvTag[];
  if (values.file) {
    tags = readFlvTags(readFileSync(values.file));
  } else if (values['hevc-annexb']) {
    const fps = Number(values.fps);
    if (!(fps > 0 && fps <= 240)) {
      usage('--fps must be between 0 and 240');
    }
    tags = hevcTags(readFileSync(values['hevc-annexb']), fps);
  } else {
    usage('--file or --hevc-annexb is required');
  }
  const media = tags.filter((tag) => tag.type !== FlvTagType.script);
  const last = media[media.length - 1]?.timestampMs ?? 0;
  const passMs = last + 33;
  const publisher = new RtmpPublisher();
  await publisher.connect(values.url, values.insecure ? { tls: { rejectUnauthorized: false } } : {});
  let stop = false;
  process.once('SIGTERM', () => {
    stop = true;
  });
  process.once('SIGINT', () => {
    stop = true;
  });
  const started = performance.now();
  let sent = 0;
  for (let pass = 0; !stop && (pass === 0 || values.loop); pass++) {
    for (const tag of pass === 0 ? tags : media) {
      if (stop) {
        break;
      }
      const timestampMs = tag.timestampMs + pass * passMs;
      if (values.realtime) {
        const wait = started + timestampMs - performance.now();
        if (wait > 1) {
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
      await publisher.writeTag({ ...tag, timestampMs });
      sent++;
    }
  }
  await publisher.close();
  console.error(`publish-flv: sent ${sent} tags`);
}

main().catch((error: unknown) => {
  console.error(`publish-flv: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
