/**
 * Playlists and manifests of stored content (recordings, chapters, clips) over its recorded CMAF
 * segments: an HLS multivariant playlist and one media playlist per track (RFC 8216bis §4.4;
 * EXT-X-PLAYLIST-TYPE:VOD with EXT-X-ENDLIST once finished, EVENT while the recording grows;
 * EXT-X-DISCONTINUITY at reconnects), and a static (or, while growing, dynamic) DASH MPD
 * (ISO/IEC 23009-1 §5.3.9.6) with one SegmentTimeline per track and a new Period (§5.3.2) at every
 * reconnect or codec change, each with the init segment its media needs.
 */
import { initName, segmentName } from '@airwave/media/protocols/shared/cmaf/cmaf-names';
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import { withUriQuery } from '@airwave/media/protocols/shared/http-types';
import type { IndexedSegment, RecordedTrack } from '../../../domain/recordings/segment-index.js';
import type { TrackSelection } from '../../../domain/recordings/segment-selection.js';

const AUDIO_GROUP = 'aud';

/** How a playlist or MPD of stored content is presented. */
export interface ManifestView {
  /** Nothing more will be added (VOD, static MPD). */
  readonly finished: boolean;
  readonly uriQuery: string | undefined;
  readonly nowMs: number;
  /**
   * The live DVR window, seconds: media playlists slide (no EXT-X-PLAYLIST-TYPE, with
   * EXT-X-DISCONTINUITY-SEQUENCE) and the MPD's timeShiftBufferDepth is the window.
   */
  readonly windowSeconds?: number;
  /** Where the whole recording starts (a dynamic MPD's clock): wall-clock ms and each track's first presentation time. */
  readonly origin?: { readonly wallMs: number; readonly ept: Partial<Record<CmafTrackName, number>> };
  /**
   * Discontinuities before the listed segments, per track (a sliding playlist), counting the first
   * listed segment's own: the discontinuity sequence number of the first listed segment.
   */
  readonly discontinuitiesBefore?: Partial<Record<CmafTrackName, number>>;
  /** Where the first listed segments' Period began on the leading track's clock, when after the recording's start. */
  readonly firstPeriodEpt?: number;
}

function seconds(segment: IndexedSegment): number {
  return segment.duration / segment.timescale;
}

function bandwidth(track: TrackSelection): number {
  let bytes = 0;
  let time = 0;
  let peak = 0;
  for (const segment of track.segments) {
    bytes += segment.bytes;
    time += seconds(segment);
    if (seconds(segment) > 0) {
      peak = Math.max(peak, (segment.bytes * 8) / seconds(segment));
    }
  }
  return Math.max(1, Math.round(peak || (time > 0 ? (bytes * 8) / time : 1_000_000)));
}

/** Every codec a track's listed segments need (a reconnect may have changed it; RFC 8216bis §4.4.6.2 CODECS). */
function codecsOf(track: TrackSelection): string[] {
  const used = new Set(track.segments.map((segment) => segment.init));
  const codecs = track.inits.filter((init) => used.has(init.version)).map((init) => init.codecString);
  return codecs.length > 0 ? codecs : track.described ? [track.described.codecString] : [];
}

/**
 * The multivariant playlist: the video playlist with the audio rendition, or the only track's
 * playlist; CODECS lists every codec of the listed segments, RESOLUTION the first segment's.
 */
export function storedMultivariant(tracks: readonly TrackSelection[], uriQuery: string | undefined): string {
  const video = tracks.find((track) => track.track === 'video');
  const audio = tracks.find((track) => track.track === 'audio');
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  const codecs = [...new Set(tracks.flatMap(codecsOf))];
  const total = tracks.reduce((sum, track) => sum + bandwidth(track), 0);
  const attributes = [`BANDWIDTH=${total}`, `CODECS="${codecs.join(',')}"`];
  if (video?.described?.width && video.described.height) {
    attributes.push(`RESOLUTION=${video.described.width}x${video.described.height}`);
  }
  if (video && audio) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="${AUDIO_GROUP}",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,` +
        `URI="${withUriQuery('audio.m3u8', uriQuery)}"`,
    );
    attributes.push(`AUDIO="${AUDIO_GROUP}"`);
  }
  const main = video ?? audio;
  if (main) {
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, withUriQuery(`${main.track}.m3u8`, uriQuery));
  }
  return `${lines.join('\n')}\n`;
}

/** One track's media playlist: VOD once finished, EVENT while the recording grows, sliding in a live DVR window. */
export function storedMediaPlaylist(track: TrackSelection, view: ManifestView): string {
  const target = Math.max(1, ...track.segments.map((segment) => Math.ceil(seconds(segment))));
  const first = track.segments[0];
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.msn ?? 0}`,
  ];
  if (view.windowSeconds === undefined) {
    lines.push(`#EXT-X-PLAYLIST-TYPE:${view.finished ? 'VOD' : 'EVENT'}`);
  } else {
    lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${view.discontinuitiesBefore?.[track.track] ?? 0}`);
  }
  lines.push('#EXT-X-INDEPENDENT-SEGMENTS');
  let version = -1;
  track.segments.forEach((segment, i) => {
    if (i > 0 && segment.discontinuity) {
      lines.push('#EXT-X-DISCONTINUITY');
    }
    if (segment.init !== version) {
      version = segment.init;
      lines.push(`#EXT-X-MAP:URI="${withUriQuery(initName(track.track, version), view.uriQuery)}"`);
    }
    lines.push(
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.wallMs).toISOString()}`,
      `#EXTINF:${seconds(segment).toFixed(5)},`,
      withUriQuery(segmentName(track.track, segment.msn), view.uriQuery),
    );
  });
  if (view.finished) {
    lines.push('#EXT-X-ENDLIST');
  }
  return `${lines.join('\n')}\n`;
}

function isoDuration(value: number): string {
  return `PT${Math.max(0, value).toFixed(3)}S`;
}

/** The DASH MPD of stored content: static once finished, dynamic (growing, seekable from its start) while recording. */
export function storedMpd(tracks: readonly TrackSelection[], view: ManifestView): string {
  const { finished, uriQuery, nowMs } = view;
  const leader = tracks[0];
  const totalSeconds = leader ? leader.segments.reduce((sum, segment) => sum + seconds(segment), 0) : 0;
  const maxSegment = Math.max(1, ...tracks.flatMap((track) => track.segments.map(seconds)));
  const attributes = [
    'xmlns="urn:mpeg:dash:schema:mpd:2011"',
    'profiles="urn:mpeg:dash:profile:isoff-live:2011"',
    `minBufferTime="${isoDuration(2)}"`,
    `maxSegmentDuration="${isoDuration(maxSegment)}"`,
  ];
  if (finished) {
    attributes.push('type="static"', `mediaPresentationDuration="${isoDuration(totalSeconds)}"`);
  } else {
    const start = view.origin?.wallMs ?? leader?.segments[0]?.wallMs ?? nowMs;
    const depth = view.windowSeconds ?? totalSeconds + maxSegment;
    attributes.push(
      'type="dynamic"',
      `availabilityStartTime="${new Date(start).toISOString()}"`,
      `publishTime="${new Date(nowMs).toISOString()}"`,
      `minimumUpdatePeriod="${isoDuration(2)}"`,
      `timeShiftBufferDepth="${isoDuration(depth)}"`,
      `suggestedPresentationDelay="${isoDuration(3 * maxSegment)}"`,
    );
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<MPD ${attributes.join(' ')}>`];
  const periods = mpdPeriods(tracks, view);
  if (periods.length === 0) {
    lines.push('  <Period id="p0" start="PT0S">', '  </Period>');
  }
  for (const period of periods) {
    lines.push(`  <Period id="p${period.id}" start="${isoDuration(period.startSeconds)}">`);
    period.tracks.forEach(({ track, segments, pto }, id) => {
      const first = segments[0] as IndexedSegment;
      const contentType = track.track === 'video' ? 'video' : 'audio';
      const described = track.inits.find((entry) => entry.version === first.init) ?? track.described;
      lines.push(
        `    <AdaptationSet id="${id}" contentType="${contentType}" mimeType="${contentType}/mp4" segmentAlignment="true" startWithSAP="1">`,
        `      <SegmentTemplate timescale="${first.timescale}" presentationTimeOffset="${pto}" ` +
          `initialization="${withUriQuery(initName(track.track, first.init), uriQuery)}" ` +
          `media="${withUriQuery(`${track.track}-$Number$.m4s`, uriQuery)}" startNumber="${first.msn}">`,
        '        <SegmentTimeline>',
        ...timeline(segments),
        '        </SegmentTimeline>',
        '      </SegmentTemplate>',
        `      <Representation id="${track.track}" bandwidth="${bandwidth(track)}" codecs="${described?.codecString ?? ''}"` +
          representationAttributes(track.track, described),
        '    </AdaptationSet>',
      );
    });
    lines.push('  </Period>');
  }
  lines.push('</MPD>');
  return `${lines.join('\n')}\n`;
}

/** One Period of a stored MPD: its tracks' segments and presentation time offsets. */
interface MpdPeriod {
  /** Counts periods from the recording's start (stable while a DVR window slides). */
  readonly id: number;
  readonly startSeconds: number;
  readonly tracks: readonly {
    readonly track: TrackSelection;
    readonly segments: readonly IndexedSegment[];
    readonly pto: number;
  }[];
}

/**
 * Splits the listed segments into Periods at every segment (of any track) opening a discontinuity
 * or needing another init segment, by media sequence number (every track is cut at the same times).
 * The first Period starts at 0 on the recording's clock; a later one where its leading segment does.
 */
function mpdPeriods(tracks: readonly TrackSelection[], view: ManifestView): MpdPeriod[] {
  const leader = tracks[0]?.segments ?? [];
  const leaderFirst = leader[0];
  if (!leaderFirst) {
    return [];
  }
  const boundaries = new Set<number>();
  for (const track of tracks) {
    track.segments.forEach((segment, i) => {
      const previous = track.segments[i - 1];
      if (previous && (segment.discontinuity || segment.init !== previous.init)) {
        boundaries.add(segment.msn);
      }
    });
  }
  const starts = [leaderFirst.msn, ...[...boundaries].filter((msn) => msn > leaderFirst.msn).sort((a, b) => a - b)];
  const leaderName = tracks[0]?.track ?? 'video';
  const before = view.discontinuitiesBefore?.[leaderName] ?? 0;
  const originSeconds = (view.origin?.ept[leaderName] ?? leaderFirst.ept) / leaderFirst.timescale;
  const periods: MpdPeriod[] = [];
  starts.forEach((from, k) => {
    const until = starts[k + 1] ?? Number.POSITIVE_INFINITY;
    const recordingStart = k === 0 && before === 0;
    const opening = leader.find((segment) => segment.msn >= from);
    const openingEpt = k === 0 && view.firstPeriodEpt !== undefined ? view.firstPeriodEpt : opening?.ept;
    const openingSeconds = openingEpt === undefined ? originSeconds : openingEpt / leaderFirst.timescale;
    const members = tracks.flatMap((track) => {
      const segments = track.segments.filter((segment) => segment.msn >= from && segment.msn < until);
      const first = segments[0];
      if (!first) {
        return [];
      }
      const pto = recordingStart
        ? (view.origin?.ept[track.track] ?? first.ept)
        : Math.round(openingSeconds * first.timescale);
      return [{ track, segments, pto }];
    });
    if (members.length > 0) {
      periods.push({
        id: before + k,
        startSeconds: recordingStart ? 0 : openingSeconds - originSeconds,
        tracks: members,
      });
    }
  });
  return periods;
}

function representationAttributes(name: CmafTrackName, described: RecordedTrack | undefined): string {
  if (name === 'video') {
    return ` width="${described?.width ?? 0}" height="${described?.height ?? 0}"/>`;
  }
  return ` audioSamplingRate="${described?.sampleRate ?? 48000}"/>`;
}

/** SegmentTimeline `S` elements: explicit `t` on the first and after every jump, `r` for runs. */
function timeline(segments: readonly IndexedSegment[]): string[] {
  const out: string[] = [];
  let expected: number | undefined;
  let run: { t: number | undefined; d: number; r: number } | undefined;
  const flush = () => {
    if (run) {
      out.push(
        `          <S${run.t === undefined ? '' : ` t="${run.t}"`} d="${run.d}"${run.r > 0 ? ` r="${run.r}"` : ''}/>`,
      );
    }
  };
  for (const segment of segments) {
    const contiguous = expected === segment.ept;
    if (run && contiguous && run.d === segment.duration) {
      run.r++;
    } else {
      flush();
      run = { t: contiguous ? undefined : segment.ept, d: segment.duration, r: 0 };
    }
    expected = segment.ept + segment.duration;
  }
  flush();
  return out;
}
