/**
 * A seek bar with sprite-sheet previews for recordings, chapters, clips and VOD: moving the pointer
 * over it shows the thumbnail (and time) under the pointer; with the keyboard (arrows, Page Up/Down,
 * Home/End on the focused slider) the thumbnail of the position being sought is shown. Thumbnails
 * come from the sprite cue file next to the media (`/play/<id>/thumbnails/sprite.vtt`); without one
 * the bar still seeks.
 */
import { type PointerEvent, useEffect, useId, useState } from 'react';
import { clock } from '../ui/clock';
import { parseSpriteVtt, type SpriteTile, tileAt } from './sprite-vtt';

/** Loads the tiles of `url` (none when it is missing or unreadable); a new `attempt` loads again. */
function useTiles(url: string, attempt: number): SpriteTile[] {
  const [tiles, setTiles] = useState<SpriteTile[]>([]);
  useEffect(() => {
    let current = true;
    setTiles([]);
    const absolute = new URL(url, window.location.href).toString();
    fetch(absolute, { credentials: 'same-origin', cache: attempt > 0 ? 'no-cache' : 'default' })
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => current && setTiles(parseSpriteVtt(text, absolute)))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [url, attempt]);
  return tiles;
}

/** Position and duration of `video`, following its events; `seek` moves the video and the slider at once. */
function usePlayhead(video: HTMLVideoElement | null): { time: number; duration: number; seek(to: number): void } {
  const [state, setState] = useState({ time: 0, duration: 0 });
  useEffect(() => {
    if (!video) {
      return;
    }
    const update = () =>
      setState({ time: video.currentTime, duration: Number.isFinite(video.duration) ? video.duration : 0 });
    const names = ['timeupdate', 'durationchange', 'loadedmetadata', 'seeked'] as const;
    for (const name of names) {
      video.addEventListener(name, update);
    }
    update();
    return () => {
      for (const name of names) {
        video.removeEventListener(name, update);
      }
    };
  }, [video]);
  // The slider is controlled: its value must follow a seek in the same render, or React puts the
  // old position back and the browser's trailing change event seeks there again.
  const seek = (to: number) => {
    if (video) {
      video.currentTime = to;
      setState((previous) => ({ ...previous, time: to }));
    }
  };
  return { ...state, seek };
}

/** The bar under a player of recorded media. */
export function ScrubBar({ video, vttUrl }: { video: HTMLVideoElement | null; vttUrl: string }) {
  const id = useId();
  // Sheets are made once the media is finalized: ask again when the bar is approached without them.
  const [attempt, setAttempt] = useState(0);
  const tiles = useTiles(vttUrl, attempt);
  const retry = () => tiles.length === 0 && setAttempt((n) => n + 1);
  const { time, duration, seek } = usePlayhead(video);
  const [hover, setHover] = useState<number>();
  const [keyboard, setKeyboard] = useState(false);
  const previewTime = hover ?? (keyboard ? time : undefined);
  const tile = previewTime === undefined ? undefined : tileAt(tiles, previewTime);

  const pointerTime = (event: PointerEvent<HTMLInputElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (event.clientX - box.left) / Math.max(1, box.width)));
    return fraction * duration;
  };
  const left = duration > 0 && previewTime !== undefined ? (previewTime / duration) * 100 : 0;
  return (
    <div className="scrub">
      <label htmlFor={id} className="visually-hidden">
        Seek (thumbnails preview the position)
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={duration || 0}
        step={1}
        value={Math.min(time, duration || 0)}
        disabled={duration <= 0}
        aria-valuetext={`${clock(time)} of ${clock(duration)}`}
        data-testid="scrub-bar"
        onChange={(event) => seek(Number(event.currentTarget.value))}
        onPointerMove={(event) => duration > 0 && setHover(pointerTime(event))}
        onPointerEnter={retry}
        onFocus={retry}
        onPointerLeave={() => setHover(undefined)}
        onKeyDown={() => setKeyboard(true)}
        onBlur={() => setKeyboard(false)}
      />
      <span className="muted scrub-time">
        {clock(time)} / {clock(duration)}
      </span>
      {previewTime !== undefined && tile && (
        <div
          className="scrub-preview"
          style={{ left: `clamp(0px, calc(${left}% - ${tile.width / 2}px), calc(100% - ${tile.width}px))` }}
          data-testid="scrub-thumbnail"
          data-time={previewTime.toFixed(1)}
          aria-hidden="true"
        >
          <div
            className="scrub-image"
            style={{
              width: tile.width,
              height: tile.height,
              backgroundImage: `url("${tile.image}")`,
              backgroundPosition: `-${tile.x}px -${tile.y}px`,
            }}
          />
          <span>{clock(previewTime)}</span>
        </div>
      )}
    </div>
  );
}
