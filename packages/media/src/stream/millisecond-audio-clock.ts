/**
 * Audio timestamps from a container that counts milliseconds (DTSC, Matroska at its default
 * TimecodeScale): each frame is put on the track's sample clock, and kept on exact frame steps
 * while the milliseconds agree with them (within 2 ms), so rounding never makes the DTS jitter.
 */

/** One audio track's clock. */
export class MillisecondAudioClock {
  private next: number | undefined;

  constructor(private readonly sampleRate: number) {}

  /** The DTS (sample clock) of a frame at `ms` lasting `samples`. */
  dts(ms: number, samples: number): number {
    const fromMs = Math.round((ms * this.sampleRate) / 1000);
    const expected = this.next;
    const dts =
      expected !== undefined && Math.abs(fromMs - expected) <= (this.sampleRate * 2) / 1000 ? expected : fromMs;
    this.next = dts + samples;
    return dts;
  }
}
