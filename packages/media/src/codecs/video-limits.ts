/** Limits and small helpers shared by the video codec parsers (H.264, H.265, AV1, VP9). */

/** Largest picture dimension accepted, in luma samples. */
export const MAX_VIDEO_DIMENSION = 16384;

/** Rounds a frame rate to 3 decimals (29.97, 59.94, 30). */
export function roundFps(fps: number): number {
  return Math.round(fps * 1000) / 1000;
}
