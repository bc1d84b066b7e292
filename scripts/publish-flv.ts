#!/usr/bin/env -S node --conditions=source --import tsx
/**
 * Publishes media to an RTMP(S) server with our own E-RTMP publisher, for what ffmpeg 5.1 cannot
 * send (E-FLV AV1/Opus files, HEVC, VP9, E-RTMP avc1/mp4a). Usage:
 *   publish-flv --url rtmp://host:1935/live/<key> --file in.flv [--realtime] [--loop]
 *   publish-flv --url rtmp://host:1935/live/<key> --h264-annexb in.h264 --fps 30 [--aac-adts in.aac] [--realtime]
 *   publish-flv --url rtmp://host:1935/live/<key> --hevc-annexb in.hevc --fps 30 [--aac-adts in.aac] [--realtime]
 *   publish-flv --url rtmp://host:1935/live/<key> --vp9-ivf in.ivf [--aac-adts in.aac] [--realtime] [--loop]
 *   publish-flv --url rtmp://host:1935/live/<key> --av1-ivf in.ivf [--opus-ogg in.ogg] [--realtime] [--loop]
 * Encoder outputs are sent as E-RTMP v2 tags (avc1/hvc1/vp09/av01, mp4a/Opus), interleaved by timestamp.
 * `--insecure` accepts a self-signed certificate for rtmps://. Annex B input must have no
 * B-frames (raw H.264/H.265 carries no timestamps; frames are sent in decode order at --fps).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type FlvTag, FlvTagType, readFlvTags } from '@airwave/media/formats/flv/flv-tag';
import { adtsToTrack } from '@airwave/media/protocols/rtmp/adts-to-flv';
import { h264AnnexBToTrack, h265AnnexBToTrack } from '@airwave/media/protocols/rtmp/annexb-to-flv';
import { RtmpPublisher } from '@airwave/media/protocols/rtmp/client';
import { type EncodedTrack, toFlvTags } from '@airwave/media/protocols/rtmp/encoded-track';
import { av1IvfToTrack, vp9IvfToTrack } from '@airwave/media/protocols/rtmp/ivf-to-flv';
import { oggOpusToTrack } from '@airwave/media/protocols/rtmp/ogg-opus-to-flv';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    file: { type: 'string' },
    'h264-annexb': { type: 'string' },
    'hevc-annexb': { type: 'string' },
    'vp9-ivf': { type: 'string' },
    'av1-ivf': { type: 'string' },
    'aac-adts': { type: 'string' },
    'opus-ogg': { type: 'string' },
    fps: { type: 'string', default: '30' },
    realtime: { type: 'boolean', default: false },
    loop: { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
});

function usage(message: string): never {
  console.error(`publish-flv: ${message}`);
  console.error(
    'usage: publish-flv --url rtmp://host:port/live/<key> (--file in.flv | [--h264-annexb in.h264 | --hevc-annexb in.hevc | --vp9-ivf in.ivf | --av1-ivf in.ivf] [--aac-adts in.aac | --opus-ogg in.ogg] [--fps 30]) [--realtime] [--loop] [--insecure]',
  );
  process.exit(2);
}

/** The E-RTMP tags of the encoder outputs named on the command line, interleaved by timestamp. */
function encodedTags(): FlvTag[] {
  const fps = Number(values.fps);
  const tracks: EncodedTrack[] = [];
  const videos = [values['h264-annexb'], values['hevc-annexb'], values['vp9-ivf'], values['av1-ivf']].filter(
    (path) => path !== undefined,
  );
  if (videos.length > 1) {
    usage('give at most one of --h264-annexb, --hevc-annexb, --vp9-ivf, --av1-ivf');
  }
  if (values['aac-adts'] && values['opus-ogg']) {
    usage('give at most one of --aac-adts, --opus-ogg');
  }
  if (values['h264-annexb']) {
    tracks.push(h264AnnexBToTrack(readFileSync(values['h264-annexb']), fps));
  } else if (values['hevc-annexb']) {
    tracks.push(h265AnnexBToTrack(readFileSync(values['hevc-annexb']), fps));
  } else if (values['vp9-ivf']) {
    tracks.push(vp9IvfToTrack(readFileSync(values['vp9-ivf'])));
  } else if (values['av1-ivf']) {
    tracks.push(av1IvfToTrack(readFileSync(values['av1-ivf'])));
  }
  if (values['aac-adts']) {
    tracks.push(adtsToTrack(readFileSync(values['aac-adts'])));
  } else if (values['opus-ogg']) {
    tracks.push(oggOpusToTrack(readFileSync(values['opus-ogg'])));
  }
  if (tracks.length === 0) {
    usage('--file, --h264-annexb, --hevc-annexb, --vp9-ivf, --av1-ivf, --aac-adts or --opus-ogg is required');
  }
  return toFlvTags(tracks);
}

async function main(): Promise<void> {
  if (!values.url) {
    usage('--url is required');
  }
  let tags: FlvTag[];
  if (values.file) {
    tags = readFlvTags(readFileSync(values.file));
  } else {
    tags = encodedTags();
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
