/**
 * The live DASH MPD (ISO/IEC 23009-1, DASH-IF IOP live profile) over the CMAF packager: one
 * AdaptationSet per track with a SegmentTemplate + SegmentTimeline (`$Number$`) listing the same
 * segments LL-HLS lists, one Period per CMAF period (a new one after each publisher reconnect,
 * joined to the previous one without a gap: docs/adr/0005), UTCTiming by direct value. When the
 * stream ends the MPD becomes static with a mediaPresentationDuration over the segments still held.
 */

import { initName, segmentTemplate } from '../shared/cmaf/cmaf-names.js';
import type { CmafPackager } from '../shared/cmaf/cmaf-packager.js';
import type { CmafTrackWriter } from '../shared/cmaf/cmaf-track-writer.js';
import { type CmafPeriod, type CmafSegment, mediaStartMs } from '../shared/cmaf/cmaf-types.js';
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

/** True once the MPD can be rendered: the stream has a period the MPD lists (see `listedPeriods`). */
export function mpdReady(packager: CmafPackager): boolean {
  return packager.origin !== undefined && packager.leader !== undefined && listedPeriods(packager).length > 0;
}

/** Renders the MPD; throws unless `mpdReady(packager)`. */
export function renderMpd(packager: CmafPackager, input: MpdInput): string {
  const origin = packager.origin;
  const leader = packager.leader;
  const periods = listedPeriods(packager);
  if (!origin || !leader || periods.length === 0) {
    throw new Error('the MPD needs a started stream');
  }
  const ended = packager.ended !== undefined;
  const targetDuration = packager.targetDuration;
  const maxSegment =
    Math.ceil(Math.max(packager.options.segmentTargetSeconds, packager.longestSegmentSeconds) * 1000) / 1000;
  const bitrates = packager.measurements().trackBitrates;
  const windowSeconds = span(leader.segments, leader.track.timescale);
  const placed = placePeriods(periods, leader, origin, ended);
  const attributes: string[] = [
    'xmlns="urn:mpeg:dash:schema:mpd:2011"',
    'profiles="urn:mpeg:dash:profile:isoff-live:2011"',
  ];
  if (ended) {
    attributes.push(
      'type="static"',
      `mediaPresentationDuration="${duration(presentationEnd(leader, placed))}"`,
      `maxSegmentDuration="${duration(maxSegment)}"`,
      `minBufferTime="${duration(packager.options.segmentTargetSeconds)}"`,
    );
  } else {
    attributes.push(
      'type="dynamic"',
      `availabilityStartTime="${iso(origin.startWallMs)}"`,
      `publishTime="${iso(input.nowMs)}"`,
      `minimumUpdatePeriod="${duration(2 * packager.options.partTargetSeconds)}"`,
      `maxSegmentDuration="${duration(maxSegment)}"`,
      `minBufferTime="${duration(packager.options.segmentTargetSeconds)}"`,
      `timeShiftBufferDepth="${duration(Math.max(windowSeconds, targetDuration))}"`,
      `suggestedPresentationDelay="${duration(3 * targetDuration)}"`,
    );
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<MPD ${attributes.join(' ')}>`];
  for (const { period, startSeconds, mediaStartSeconds } of placed) {
    lines.push(`  <Period id="p${period.id}" start="${duration(startSeconds)}">`);
    let adaptationId = 0;
    for (const writer of adaptationWriters(packager, period)) {
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
        `      <SegmentTemplate timescale="${timescale}" presentationTimeOffset="${Math.round(mediaStartSeconds * timescale)}" ` +
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
  if (!ended) {
    lines.push(`  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="${iso(input.nowMs)}"/>`);
  }
  lines.push('</MPD>', '');
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

/**
 * The periods the MPD lists, in order. Live, a period appears only once every track it carries
 * has a complete segment in it (and leaves once one of them has none left in the window): the
 * AdaptationSets of a Period must not change between MPD updates (ISO/IEC 23009-1 5.4), and
 * players build a Period's tracks once (dash.js preloading a new Period whose audio was not
 * listed yet plays it without audio and stalls at the end of the audio buffer). Ended (static,
 * no more updates), every period with a segment.
 */
export function listedPeriods(packager: CmafPackager): CmafPeriod[] {
  const byId = new Map<number, CmafPeriod>();
  for (const writer of packager.tracks) {
    for (const segment of writer.segments) {
      byId.set(segment.period.id, segment.period);
    }
  }
  const ended = packager.ended !== undefined;
  return [...byId.values()]
    .filter((period) => ended || adaptationWriters(packager, period).length === period.tracks.length)
    .sort((a, b) => a.id - b.id);
}

/** Writers with segments in `period`; live, only of the tracks the period carries. */
function adaptationWriters(packager: CmafPackager, period: CmafPeriod): CmafTrackWriter[] {
  const ended = packager.ended !== undefined;
  return packager.tracks.filter(
    (writer) =>
      (ended || period.tracks.includes(writer.name)) &&
      writer.segments.some((segment) => segment.period.id === period.id),
  );
}

/** A period placed on the MPD timeline: where it starts and which media time is there. */
interface PlacedPeriod {
  readonly period: CmafPeriod;
  /** Period@start, seconds. */
  readonly startSeconds: number;
  /** Media time at Period@start, seconds (presentationTimeOffset / timescale). */
  readonly mediaStartSeconds: number;
}

/**
 * Live: each period's media sits at the wall-clock time it was presented, relative to
 * availabilityStartTime, so segment availability times hold; its Period@start is where the
 * previous period's media ends, so periods join without a gap and the time the publisher was away
 * is missing media at the start of the new period (its first S@t after the Period start), which
 * players skip as a gap at a Period start. Every value comes from the period's own fields, so it
 * never changes between updates. Where the media time is shorter than that lead, the lead is cut
 * so presentationTimeOffset stays >= 0. Ended (static): the same timeline moved so the first
 * period starts at 0 at its first segment still held.
 */
function placePeriods(
  periods: readonly CmafPeriod[],
  leader: CmafTrackWriter,
  origin: CmafPeriod,
  ended: boolean,
): PlacedPeriod[] {
  let offset: number | undefined;
  return periods.map((period) => {
    const mediaAtMs = mediaStartMs(period);
    const lead = Math.min((mediaAtMs - period.presentationStartMs) / 1000, period.startMediaSeconds);
    const startSeconds = (mediaAtMs - origin.startWallMs) / 1000 - lead;
    const mediaStartSeconds = period.startMediaSeconds - lead;
    if (!ended) {
      return { period, startSeconds, mediaStartSeconds };
    }
    if (offset !== undefined) {
      return { period, startSeconds: startSeconds - offset, mediaStartSeconds };
    }
    const first = leader.segments.find((segment) => segment.period.id === period.id);
    const held = first
      ? first.earliestPresentationTime / leader.trackOf(first.initVersion).timescale
      : mediaStartSeconds;
    const skip = Math.max(0, held - mediaStartSeconds);
    offset = startSeconds + skip;
    return { period, startSeconds: 0, mediaStartSeconds: mediaStartSeconds + skip };
  });
}

function presentationEnd(leader: CmafTrackWriter, placed: readonly PlacedPeriod[]): number {
  const last = leader.segments[leader.segments.length - 1];
  const where = placed.find((entry) => entry.period.id === last?.period.id);
  if (!last || !where) {
    return 0;
  }
  const end = (last.earliestPresentationTime + last.duration) / leader.track.timescale;
  return where.startSeconds + end - where.mediaStartSeconds;
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
