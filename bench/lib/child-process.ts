/**
 * Child processes of a benchmark: stop by PID, wait for a TCP port, pick a free port, and run a
 * section's own file as a child that reports readiness on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const READY = 'BENCH_READY ';

/** Sends SIGTERM, then SIGKILL after `graceMs`, and resolves once the child exited. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A TCP port that was free a moment ago on 127.0.0.1 (for peers that cannot listen on port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects after `timeoutMs` or when `child` exits. */
export async function waitForPort(port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`process exited with ${child.exitCode} before listening on ${port}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/**
 * Waits until `child` listens on `port` and returns how to stop it (by PID) and remove `dir`, its
 * scratch directory; if it does not listen, stops it and throws naming `name` and the `log()` tail.
 */
export async function untilListening(
  child: ChildProcess,
  port: number,
  dir: string,
  name: string,
  log: () => string,
): Promise<() => Promise<void>> {
  const stop = async (): Promise<void> => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child);
  } catch (error) {
    const tail = log();
    await stop();
    throw new Error(`${name} did not start: ${String(error)} ${tail}`);
  }
  return stop;
}

/**
 * Starts `moduleUrl` (a section's `import.meta.url`) in a child node with tsx and the `source`
 * condition, `env` added; resolves with what the child passed to `announceReady`.
 */
export function startReadyChild<T>(
  moduleUrl: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(moduleUrl)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith(READY)) {
        resolve({ child, ready: JSON.parse(line.slice(READY.length)) as T });
      }
    });
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
  });
}

/** In a child of `startReadyChild`: reports `ready` to the parent, and runs `close` then exits on SIGTERM. */
export function announceReady(ready: unknown, close: () => Promise<unknown>): void {
  console.log(`${READY}${JSON.stringify(ready)}`);
  process.on('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}
