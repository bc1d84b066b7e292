/**
 * One supervised child process (ffmpeg and friends): its stdout is handed to the caller, its
 * stderr tail is kept for the reason it ended, and it is killed (SIGTERM, then SIGKILL after a
 * grace period) when asked or when it writes nothing for `stallMs`. Whatever the child does —
 * fail to start, crash, hang, flood — ends as one resolved `exited` promise, never an exception
 * in the caller's process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from '../ports.js';

/** Most stderr bytes kept (the tail, for error messages). */
export const STDERR_TAIL_BYTES = 4096;

/** How a supervised child ended. */
export interface ChildExit {
  /** Exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why the supervisor ended it, when it did (stop() or the stall watchdog). */
  readonly killedBecause?: string;
  /** The child never ran (e.g. the command is missing). */
  readonly spawnError?: Error;
  /** Its stderr's last lines. */
  readonly stderrTail: string;
}

/** Options of a supervised child. */
export interface SupervisedChildOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly log: Logger;
  /** Receives every stdout chunk. A throw from it stops the child with the error as reason. */
  readonly onStdout: (chunk: Buffer) => void;
  /** Kill the child when its stdout has been silent this long (0: never). */
  readonly stallMs?: number;
  /** Time between SIGTERM and SIGKILL (default 2 s). */
  readonly killGraceMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** A running child under supervision. */
export class SupervisedChild {
  /** Resolves once, when the child is gone. */
  readonly exited: Promise<ChildExit>;
  private readonly child: ChildProcess;
  private stderr = '';
  private killedBecause: string | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private lastOutput = Date.now();
  private done = false;

  constructor(private readonly options: SupervisedChildOptions) {
    this.child = spawn(options.command, options.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let settle: (exit: ChildExit) => void = () => undefined;
    this.exited = new Promise((resolve) => {
      settle = resolve;
    });
    const finish = (exit: Omit<ChildExit, 'stderrTail' | 'killedBecause'>): void => {
      if (this.done) {
        return;
      }
      this.done = true;
      clearInterval(this.stallTimer);
      clearTimeout(this.killTimer);
      settle({
        ...exit,
        stderrTail: this.stderr,
        ...(this.killedBecause ? { killedBecause: this.killedBecause } : {}),
      });
    };
    this.child.on('error', (error) => {
      // Spawn failures (ENOENT) arrive here and no 'close' may follow.
      if (this.child.pid === undefined) {
        finish({ code: null, signal: null, spawnError: error });
      } else {
        options.log.warn({ err: error, pid: this.child.pid }, 'child process error');
      }
    });
    this.child.on('close', (code, signal) => finish({ code, signal }));
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.lastOutput = Date.now();
      try {
        options.onStdout(chunk);
      } catch (error) {
        this.stop(error instanceof Error ? error.message : String(error));
      }
    });
    this.child.stdout?.on('error', () => undefined);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.stderr?.on('error', () => undefined);
    const stallMs = options.stallMs ?? 0;
    if (stallMs > 0) {
      this.stallTimer = setInterval(
        () => {
          if (Date.now() - this.lastOutput >= stallMs) {
            this.stop(`no output for ${Math.round(stallMs / 1000)} s`);
          }
        },
        Math.max(50, Math.min(1000, stallMs / 4)),
      );
      this.stallTimer.unref();
    }
  }

  /** The child's process id (undefined when it never started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the child has ended. */
  get ended(): boolean {
    return this.done;
  }

  /** Ends the child: SIGTERM now, SIGKILL when it is still there after the grace period. */
  stop(reason: string): void {
    if (this.done || this.killedBecause !== undefined) {
      return;
    }
    this.killedBecause = reason;
    this.options.log.debug({ pid: this.child.pid, reason }, 'stopping child process');
    this.child.kill('SIGTERM');
    this.killTimer = setTimeout(() => {
      if (!this.done) {
        this.options.log.warn({ pid: this.child.pid, reason }, 'child ignored SIGTERM; killing it');
        this.child.kill('SIGKILL');
      }
    }, this.options.killGraceMs ?? 2000);
    this.killTimer.unref();
  }
}

/** The last non-empty line of a child's stderr (what ffmpeg says last is usually why it failed). */
export function lastStderrLine(stderrTail: string): string {
  const lines = stderrTail
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return lines.at(-1) ?? '';
}
