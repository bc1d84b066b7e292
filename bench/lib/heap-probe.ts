/**
 * Reads a Node child's memory after a full garbage collection through its inspector (Chrome
 * DevTools Protocol over WebSocket: `HeapProfiler.collectGarbage`, then `Runtime.evaluate` of
 * `process.memoryUsage()`), so the server under test needs no diagnostic route or `--expose-gc`:
 * start it with `--inspect=127.0.0.1:<port>` (loopback only, benchmark runs only).
 */
import WebSocket from 'ws';

/** `process.memoryUsage()` of the inspected process, bytes. */
export interface MemoryUsage {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** An open inspector session on one process. */
export interface HeapProbe {
  /** Runs a full GC in the process, then returns its `process.memoryUsage()`. */
  afterGc(): Promise<MemoryUsage>;
  close(): void;
}

/** Connects to the inspector listening on 127.0.0.1:`port` (its first target). */
export async function openHeapProbe(port: number): Promise<HeapProbe> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl?: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) {
    throw new Error(`the inspector on port ${port} listed no target`);
  }
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message?: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter || message.id === undefined) {
      return;
    }
    pending.delete(message.id);
    if (message.error) {
      waiter.reject(new Error(`inspector: ${message.error.message ?? 'error'}`));
    } else {
      waiter.resolve(message.result);
    }
  });
  socket.on('close', () => {
    for (const waiter of pending.values()) {
      waiter.reject(new Error('inspector connection closed'));
    }
    pending.clear();
  });
  const call = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    afterGc: async () => {
      await call('HeapProfiler.collectGarbage');
      const evaluated = (await call('Runtime.evaluate', {
        expression: 'process.memoryUsage()',
        returnByValue: true,
      })) as { result?: { value?: MemoryUsage } };
      const usage = evaluated.result?.value;
      if (!usage) {
        throw new Error('the inspector returned no process.memoryUsage()');
      }
      return usage;
    },
    close: () => socket.close(),
  };
}
