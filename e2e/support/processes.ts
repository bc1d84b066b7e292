/**
 * Child processes for e2e tests: every process started here is tracked and killed by PID when
 * the test file finishes, even when a test fails halfway.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { after } from 'node:test';

const tracked = new Set<ChildProcess>();
after(() => killAll());

/** A started child with its exit as a promise and collected stderr. */
export interface Tracked {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
  stdout(): string;
  /** Sends SIGTERM (SIGKILL after `graceMs`) and waits for the exit. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Spawns a tracked child process. */
export function spawnTracked(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Tracked {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  tracked.add(child);
  let err = '';
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-64 * 1024);
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-256 * 1024);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      tracked.delete(child);
      resolve(code);
    });
  });
  return {
    child,
    exited,
    stderr: () => err,
    stdout: () => out,
    async stop(graceMs = 3000) {
      if (child.exitCode !== null || child.signalCode !== null) {
        return child.exitCode;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Kills every tracked child (SIGKILL). */
export function killAll(): void {
  for (const child of tracked) {
    child.kill('SIGKILL');
  }
  tracked.clear();
}

/** True when `command` is on PATH. */
export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a truthy value (resolved with it) or `timeoutMs` passes (then throws `what`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) {
        return value;
      }
    } catch (error) {
      last = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
