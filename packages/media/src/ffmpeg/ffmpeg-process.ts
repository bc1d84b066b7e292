/**
 * One supervised ffmpeg child: stdin and stdout are pipes, stderr keeps its last few KiB for the
 * exit reason, and `stop()` ends it with SIGTERM, then SIGKILL after a grace period. A child that
 * dies on its own reports why through `onExit`, so whatever it served can close with that reason.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/** Input options for a pipe read as it arrives: errors only, no probing, no buffering. */
export const LOW_DELAY_INPUT_ARGS = [
  '-loglevel',
  'error',
  '-probesize',
  '32',
  '-analyzeduration',
  '0',
  '-fflags',
  'nobuffer',
] as const;

/** Most stderr kept for the exit reason. */
const STDERR_TAIL_BYTES = 4096;

/** Options of a supervised ffmpeg. */
export interface FfmpegProcessOptions {
  /** Arguments after `ffmpeg` (`-hide_banner -nostdin` are added). */
  readonly args: readonly string[];
  /** Called with stdout chunks. */
  onData(chunk: Buffer): void;
  /** Called once when the child exits or cannot start; `expected` when stop() asked for it. */
  onExit(reason: string, expected: boolean): void;
  /** Executable (default `ffmpeg` on PATH). */
  readonly command?: string;
}

/** A running ffmpeg. */
export class FfmpegProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = '';
  private stopping = false;
  private exited = false;

  constructor(private readonly options: FfmpegProcessOptions) {
    this.child = spawn(options.command ?? 'ffmpeg', ['-hide_banner', '-nostdin', ...options.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => options.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (error) => this.finish(`ffmpeg could not start: ${error.message}`));
    this.child.on('exit', (code, signal) =>
      this.finish(`ffmpeg exited (${signal ?? `code ${code}`})${this.lastLine()}`),
    );
  }

  /** Process id (for logs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True until the child exited. */
  get running(): boolean {
    return !this.exited;
  }

  /** Writes to ffmpeg's stdin; returns false when its pipe is full (the caller may drop). */
  write(data: Uint8Array): boolean {
    if (this.exited || this.stopping) {
      return false;
    }
    return this.child.stdin.write(data);
  }

  /** Resolves once stdin may take more (at once when its buffer is not full or the child is gone). */
  drained(): Promise<void> {
    if (this.exited || this.stopping || !this.child.stdin.writableNeedDrain) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.child.stdin.once('drain', resolve);
      this.child.once('exit', resolve);
    });
  }

  /** Bytes waiting in the stdin pipe's buffer. */
  get pendingInput(): number {
    return this.child.stdin.writableLength;
  }

  /** Ends the child: closes stdin, SIGTERM, SIGKILL after `graceMs`. */
  stop(graceMs = 2000): void {
    if (this.exited || this.stopping) {
      return;
    }
    this.stopping = true;
    this.child.stdin.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.exited) {
        this.child.kill('SIGKILL');
      }
    }, graceMs);
    timer.unref();
  }

  private lastLine(): string {
    const line = this.stderrTail.trim().split('\n').at(-1);
    return line ? `: ${line}` : '';
  }

  private finish(reason: string): void {
    if (this.exited) {
      return;
    }
    this.exited = true;
    this.options.onExit(reason, this.stopping);
  }
}
