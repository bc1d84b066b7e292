/**
 * The live DASH MPD (ISO/IEC 23009-1, DASH-IF IOP live profile) over the CMAF packager: one
 * AdaptationSet per track with a SegmentTemplate + SegmentTimeline (`$Number$`) listing the same
 * segments LL-HLS lists, one Period per CMAF period (a new one after each publisher reconnect),
 * UTCTiming by direct value. When the stream ends the MPD gets mediaPresentationDuration and no
 * minimumUpdatePeriod (IOP: the end of a dynamic presentation).
 */

import { initName, segmentTemplate } from '../shared/cmaf/cmaf-names.js';
import type { CmafPackager } from '../shared/cmaf/cmaf-packager.js';
import type { CmafTrackWriter } from '../shared/cmaf/cmaf-track-writer.js';
import type { CmafPeriod, CmafSegment } from '../shared/cmaf/cmaf-types.js';
import { withUriQuery } from '../shared/http-types.js';

/** Inputs of the MPD besides the packager. */
export interface MpdInput {
  /** Query appended to SegmentTemplate URIs (e.g. `jwt=...`). */
  readonly uriQuery: string | undefined;
  /** Time of publication (ms since the epoch). */
  readonly nowMs: number;
}

/** Bitrates assumed before a track has a complete segment. */
const FALLBACK_BANDWIDTH = { video: 2_000_000, audio: 128_000 } as const;

/** Renders the MPD; the packager must have an origin (a first period). */
export function renderMpd(packager: CmafPackager, input: MpdInput): string {
  const origin = packager.origin;
  const leader = packager.leader;
  if (!origin || !leader) {
    throw new Error('the MPD needs a started stream');
  }
  const ended = packager.ended !== undefined;
  const targetDuration = packager.targetDuration;
  const bitrates = packager.measurements().trackBitrates;
  const windowSeconds = span(leader.segments, leader.track.timescale);
  const periods = periodsOf(packager.tracks);
  const attributes: string[] = [
    'xmlns="urn:mpeg:dash:schema:mpd:2011"',
    'profiles="urn:mpeg:dash:profile:isoff-live:2011"',
    'type="dynamic"',
    `availabilityStartTime="${iso(origin.startWallMs)}"`,
    `publishTime="${iso(input.nowMs)}"`,
    `maxSegmentDuration="${duration(targetDuration)}"`,
    `minBufferTime="${duration(packager.options.segmentTargetSeconds)}"`,
    `timeShiftBufferDepth="${duration(Math.max(windowSeconds, targetDuration))}"`,
    `suggestedPresentationDelay="${duration(3 * targetDuration)}"`,
  ];
  if (ended) {
    attributes.push(`mediaPresentationDuration="${duration(presentationEnd(leader, origin))}"`);
  } else {
    attributes.push(`minimumUpdatePeriod="${duration(2 * packager.options.partTargetSeconds)}"`);
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<MPD ${attributes.join(' ')}>`];
  for (const period of periods) {
    lines.push(`  <Period id="p${period.id}" start="${duration((period.startWallMs - origin.startWallMs) / 1000)}">`);
    let adaptationId = 0;
    for (const writer of packager.tracks) {
      const segments = writer.segments.filter((segment) => segment.period.id === period.id);
      const first = segments[0];
      if (!first) {
        continue;
      }
      const track = writer.trackOf(first.initVersion);
      const timescale = track.timescale;
      const uri = (path: string): string => xml(withUriQuery(path, input.uriQuery));
      const bandwidth = bitrates[writer.name] ?? track.bitrate ?? FALLBACK_BANDWIDTH[writer.name];
      adaptationId++;
      if (track.kind === 'video') {
        lines.push(
          `    <AdaptationSet id="${adaptationId}" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">`,
        );
      } else {
        lines.push(
          `    <AdaptationSet id="${adaptationId}" contentType="audio" mimeType="audio/mp4" lang="und" segmentAlignment="true" startWithSAP="1">`,
        );
      }
      lines.push(
        `      <SegmentTemplate timescale="${timescale}" presentationTimeOffset="${Math.round(period.startMediaSeconds * timescale)}" ` +
          `startNumber="${first.msn}" initialization="${uri(initName(writer.name, first.initVersion))}" ` +
          `media="${uri(segmentTemplate(writer.name))}">`,
        '        <SegmentTimeline>',
        ...timeline(segments).map((entry) => `          ${entry}`),
        '        </SegmentTimeline>',
        '      </SegmentTemplate>',
      );
      if (track.kind === 'video') {
        const fps = track.fps ?? packager.measurements().fps;
        const frameRate = fps !== undefined && fps > 0 ? ` frameRate="${frameRateText(fps)}"` : '';
        lines.push(
          `      <Representation id="${writer.name}" codecs="${xml(track.codecString)}" bandwidth="${Math.round(bandwidth)}" ` +
            `width="${track.width}" height="${track.height}" sar="1:1"${frameRate}/>`,
        );
      } else {
        lines.push(
          `      <Representation id="${writer.name}" codecs="${xml(track.codecString)}" bandwidth="${Math.round(bandwidth)}" ` +
            `audioSamplingRate="${track.sampleRate}">`,
          `        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="${track.channels}"/>`,
          '      </Representation>',
        );
      }
      lines.push('    </AdaptationSet>');
    }
    lines.push('  </Period>');
  }
  lines.push(`  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="${iso(input.nowMs)}"/>`, '</MPD>', '');
  return lines.join('\n');
}

/** SegmentTimeline `S` elements (`t` = earliest presentation time, `r` for repeats). */
export function timeline(segments: readonly CmafSegment[]): string[] {
  const entries: { t: number; d: number; r: number; explicit: boolean }[] = [];
  let expected: number | undefined;
  for (const segment of segments) {
    const t = segment.earliestPresentationTime;
    const d = segment.duration;
    const last = entries[entries.length - 1];
    if (last && t === expected && d === last.d) {
      last.r++;
    } else {
      entries.push({ t, d, r: 0, explicit: t !== expected });
    }
    expected = t + d;
  }
  return entries.map(
    (entry) => `<S${entry.explicit ? ` t="${entry.t}"` : ''} d="${entry.d}"${entry.r > 0 ? ` r="${entry.r}"` : ''}/>`,
  );
}

function periodsOf(writers: readonly CmafTrackWriter[]): CmafPeriod[] {
  const byId = new Map<number, CmafPeriod>();
  for (const writer of writers) {
    for (const segment of writer.segments) {
      byId.set(segment.period.id, segment.period);
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function presentationEnd(leader: CmafTrackWriter, origin: CmafPeriod): number {
  const last = leader.segments[leader.segments.length - 1];
  if (!last) {
    return 0;
  }
  const timescale = leader.track.timescale;
  const periodStart = (last.period.startWallMs - origin.startWallMs) / 1000;
  return periodStart + (last.startTime + last.duration) / timescale - last.period.startMediaSeconds;
}

function span(segments: readonly CmafSegment[], timescale: number): number {
  let ticks = 0;
  for (const segment of segments) {
    ticks += segment.duration;
  }
  return ticks / timescale;
}

function frameRateText(fps: number): string {
  const rounded = Math.round(fps);
  if (Math.abs(fps - rounded) < 0.001) {
    return String(rounded);
  }
  const ntsc = Math.round(fps * 1.001);
  if (Math.abs((ntsc * 1000) / 1001 - fps) < 0.001) {
    return `${ntsc * 1000}/1001`;
  }
  return `${Math.round(fps * 1000)}/1000`;
}

function duration(seconds: number): string {
  return `PT${Math.max(0, seconds)
    .toFixed(3)
    .replace(/\.?0+$/, '')}S`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function xml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
