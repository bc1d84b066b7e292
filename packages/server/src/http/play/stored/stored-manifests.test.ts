import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexedSegment, RecordedTrack } from '../../../domain/recordings/segment-index.js';
import type { TrackSelection } from '../../../domain/recordings/segment-selection.js';
import { storedMpd, storedMultivariant } from './stored-manifests.js';

const VIDEO_TS = 90_000;
const AUDIO_TS = 48_000;

const inits: RecordedTrack[] = [
  { track: 'video', version: 0, codecString: 'avc1.64001f', timescale: VIDEO_TS, width: 1280, height: 720 },
  { track: 'video', version: 1, codecString: 'hvc1.1.6.L60.90', timescale: VIDEO_TS, width: 320, height: 240 },
  { track: 'audio', version: 0, codecString: 'mp4a.40.2', timescale: AUDIO_TS, sampleRate: AUDIO_TS, channels: 2 },
];

/** Two-second segments msn 0..5 of `track`; from `switchAt` on, a reconnect (with init `switchInit`). */
function segments(track: 'video' | 'audio', timescale: number, switchAt: number, switchInit: number): IndexedSegment[] {
  return [0, 1, 2, 3, 4, 5].map((msn) => ({
    track,
    msn,
    init: msn >= switchAt ? switchInit : 0,
    timescale,
    start: msn * 2 * timescale,
    duration: 2 * timescale,
    ept: msn * 2 * timescale,
    wallMs: 1_800_000_000_000 + msn * 2000,
    offsetMs: msn * 2000,
    discontinuity: msn === switchAt,
    bytes: 1000,
  }));
}

function selection(track: 'video' | 'audio', list: IndexedSegment[]): TrackSelection {
  const own = inits.filter((entry) => entry.track === track);
  return { track, segments: list, described: own[0], inits: own };
}

/** The Periods of an MPD with their start, initialization and the width of their video Representation. */
function periodsOf(mpd: string): { id: string; start: string; inits: string[]; width: string | undefined }[] {
  return [...mpd.matchAll(/<Period id="([^"]+)" start="([^"]+)">([\s\S]*?)<\/Period>/g)].map((match) => ({
    id: match[1] ?? '',
    start: match[2] ?? '',
    inits: [...(match[3] ?? '').matchAll(/initialization="([^"]+)"/g)].map((init) => init[1] ?? ''),
    width: / width="(\d+)"/.exec(match[3] ?? '')?.[1],
  }));
}

describe('stored MPD', () => {
  it('starts a new Period with its own init segment where the publisher came back with another resolution', () => {
    const tracks = [
      selection('video', segments('video', VIDEO_TS, 3, 1)),
      selection('audio', segments('audio', AUDIO_TS, 3, 0)),
    ];
    const mpd = storedMpd(tracks, { finished: true, uriQuery: undefined, nowMs: 0 });
    assert.deepEqual(periodsOf(mpd), [
      { id: 'p0', start: 'PT0.000S', inits: ['video-init-0.mp4', 'audio-init-0.mp4'], width: '1280' },
      { id: 'p1', start: 'PT6.000S', inits: ['video-init-1.mp4', 'audio-init-0.mp4'], width: '320' },
    ]);
    assert.match(mpd, /presentationTimeOffset="540000" initialization="video-init-1\.mp4"[^>]* startNumber="3"/);
    assert.match(mpd, /presentationTimeOffset="288000" initialization="audio-init-0\.mp4"[^>]* startNumber="3"/);
  });

  it('keeps one Period for a recording without reconnects', () => {
    const tracks = [
      selection('video', segments('video', VIDEO_TS, 99, 0)),
      selection('audio', segments('audio', AUDIO_TS, 99, 0)),
    ];
    const mpd = storedMpd(tracks, { finished: true, uriQuery: undefined, nowMs: 0 });
    assert.deepEqual(
      periodsOf(mpd).map((period) => period.id),
      ['p0'],
    );
  });

  it('numbers a sliding DVR window’s Periods from the recording’s start and places them on its clock', () => {
    const video = segments('video', VIDEO_TS, 3, 1).slice(2);
    const audio = segments('audio', AUDIO_TS, 3, 0).slice(2);
    const mpd = storedMpd([selection('video', video), selection('audio', audio)], {
      finished: false,
      uriQuery: undefined,
      nowMs: 1_800_000_020_000,
      windowSeconds: 8,
      origin: { wallMs: 1_800_000_000_000, ept: { video: 0, audio: 0 } },
      discontinuitiesBefore: { video: 0, audio: 0 },
    });
    assert.deepEqual(
      periodsOf(mpd).map(({ id, start }) => ({ id, start })),
      [
        { id: 'p0', start: 'PT0.000S' },
        { id: 'p1', start: 'PT6.000S' },
      ],
    );
    const slid = storedMpd([selection('video', video.slice(2)), selection('audio', audio.slice(2))], {
      finished: false,
      uriQuery: undefined,
      nowMs: 1_800_000_024_000,
      windowSeconds: 4,
      origin: { wallMs: 1_800_000_000_000, ept: { video: 0, audio: 0 } },
      discontinuitiesBefore: { video: 1, audio: 1 },
      firstPeriodEpt: 3 * 2 * VIDEO_TS,
    });
    assert.deepEqual(
      periodsOf(slid).map(({ id, start, inits }) => ({ id, start, inits })),
      [{ id: 'p1', start: 'PT6.000S', inits: ['video-init-1.mp4', 'audio-init-0.mp4'] }],
      'the Period keeps its id and start once its first segments left the window',
    );
    assert.match(slid, /presentationTimeOffset="540000" initialization="video-init-1\.mp4"[^>]* startNumber="4"/);
  });
});

describe('stored multivariant playlist', () => {
  it('lists every codec the recording needs when a reconnect changed the video codec', () => {
    const tracks = [
      selection('video', segments('video', VIDEO_TS, 3, 1)),
      selection('audio', segments('audio', AUDIO_TS, 3, 0)),
    ];
    assert.match(storedMultivariant(tracks, undefined), /CODECS="avc1\.64001f,hvc1\.1\.6\.L60\.90,mp4a\.40\.2"/);
    const before = tracks.map((track) => ({ ...track, segments: track.segments.slice(0, 3) }));
    assert.match(
      storedMultivariant(before, undefined),
      /CODECS="avc1\.64001f,mp4a\.40\.2"/,
      'only what the segments use',
    );
  });
});
