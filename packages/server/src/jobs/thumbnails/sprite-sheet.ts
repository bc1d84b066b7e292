/**
 * Sprite sheets of 10 × 10 thumbnails spread evenly over a duration, and their WebVTT cue file
 * (W3C WebVTT; each cue's text is `sprite.jpg#xywh=x,y,w,h`, the media-fragment form players
 * read for seek previews). Also: the pixel size of a baseline or progressive JPEG (ITU T.81 SOF).
 */

/** Columns and rows of a sprite sheet. */
export const SPRITE_COLUMNS = 10;
/** Rows of a sprite sheet. */
export const SPRITE_ROWS = 10;
/** Thumbnails on a sheet. */
export const SPRITE_TILES = SPRITE_COLUMNS * SPRITE_ROWS;

function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The WebVTT file of a sheet whose tiles are `tileWidth` × `tileHeight`, cues covering `durationSeconds`. */
export function spriteVtt(durationSeconds: number, tileWidth: number, tileHeight: number, spriteUri: string): string {
  const step = durationSeconds / SPRITE_TILES;
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < SPRITE_TILES; i++) {
    const x = (i % SPRITE_COLUMNS) * tileWidth;
    const y = Math.floor(i / SPRITE_COLUMNS) * tileHeight;
    lines.push(
      `${timestamp(i * step)} --> ${timestamp((i + 1) * step)}`,
      `${spriteUri}#xywh=${x},${y},${tileWidth},${tileHeight}`,
      '',
    );
  }
  return lines.join('\n');
}

/** Width and height of a JPEG from its first start-of-frame marker; undefined when there is none. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) {
      return undefined;
    }
    const marker = bytes[at + 1] as number;
    const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      return {
        height: ((bytes[at + 5] as number) << 8) | (bytes[at + 6] as number),
        width: ((bytes[at + 7] as number) << 8) | (bytes[at + 8] as number),
      };
    }
    at += 2 + length;
  }
  return undefined;
}

/** `count` items spread evenly over a list (all of it when shorter). */
export function spreadEvenly<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) {
    return [...items];
  }
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}
