/**
 * Sprite-sheet cue files (WebVTT whose cue text is `sheet.jpg#xywh=x,y,w,h`, as the service writes
 * next to every recording, chapter, clip and VOD asset): parsed into tiles, and the tile showing a
 * given time.
 */

/** One thumbnail: its time range (seconds) and where it sits in the sheet (absolute image URL). */
export interface SpriteTile {
  readonly start: number;
  readonly end: number;
  readonly image: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** `hh:mm:ss.mmm` or `mm:ss.mmm` as seconds; NaN when malformed. */
function seconds(stamp: string): number {
  const parts = stamp.trim().split(':');
  if (parts.length < 2 || parts.length > 3) {
    return Number.NaN;
  }
  return parts.reduce((total, part) => total * 60 + Number(part), 0);
}

/** The tiles of `text`; image URLs are resolved against `baseUrl` (the cue file's URL). Malformed cues are skipped. */
export function parseSpriteVtt(text: string, baseUrl: string): SpriteTile[] {
  const tiles: SpriteTile[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length - 1; i++) {
    const timing = /^\s*([\d:.]+)\s+-->\s+([\d:.]+)/.exec(lines[i] ?? '');
    if (!timing) {
      continue;
    }
    const cue = /^(.+)#xywh=(\d+),(\d+),(\d+),(\d+)\s*$/.exec((lines[i + 1] ?? '').trim());
    const start = seconds(timing[1] ?? '');
    const end = seconds(timing[2] ?? '');
    if (!cue || !Number.isFinite(start) || !Number.isFinite(end)) {
      continue;
    }
    tiles.push({
      start,
      end,
      image: new URL(cue[1] ?? '', baseUrl).toString(),
      x: Number(cue[2]),
      y: Number(cue[3]),
      width: Number(cue[4]),
      height: Number(cue[5]),
    });
  }
  return tiles;
}

/** The tile covering `time` (the last one past the end, the first before the start); undefined without tiles. */
export function tileAt(tiles: readonly SpriteTile[], time: number): SpriteTile | undefined {
  const found = tiles.find((tile) => time >= tile.start && time < tile.end);
  if (found) {
    return found;
  }
  return time < (tiles[0]?.start ?? 0) ? tiles[0] : tiles[tiles.length - 1];
}
