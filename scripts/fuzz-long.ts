/**
 * Long fuzz run (`npm run fuzz [-- --cases N --seed S --file text --filter text --timeout-ms T]`): finds every
 * `packages/media/src/**\/*.fuzz.ts`, runs each target for N cases (default 2,000,000) in a worker
 * thread watched by a hang detector, and prints cases/s, accepted and rejected counts and the
 * slowest case. Exits non-zero on an unexpected error, on a case slower than the timeout
 * (default 1 s, a hang) and prints the input that caused it. Reports the peak RSS at the end.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type FuzzTarget, isExpectedMediaError, mutate, prng } from '@airwave/media/testing/fuzz';

/** What the main thread asks a worker to run. */
interface Job {
  readonly file: string;
  readonly name: string;
  readonly cases: number;
  readonly seed: number;
  /** [0] = index of the running case (-1 when idle), as Int32; [1] = its start time (ms), as Float64 in `clock`. */
  readonly progress: SharedArrayBuffer;
  readonly clock: SharedArrayBuffer;
}

/** What a worker reports back. */
type Report =
  | {
      kind: 'done';
      ok: number;
      rejected: number;
      elapsedMs: number;
      slowestMs: number;
      slowestCase: number;
      heapMb: number;
    }
  | { kind: 'error'; caseIndex: number; message: string; hex: string };

const root = new URL('..', import.meta.url).pathname;

/** Loads the fuzz targets exported by a `*.fuzz.ts` file. */
async function loadTargets(file: string): Promise<FuzzTarget[]> {
  const module = (await import(pathToFileURL(file).href)) as { fuzzTargets?: FuzzTarget[] };
  if (!Array.isArray(module.fuzzTargets)) {
    throw new Error(`${file} does not export fuzzTargets`);
  }
  return module.fuzzTargets;
}

/** Worker side: runs one target, publishing the running case for the hang detector. */
async function runJob(job: Job): Promise<void> {
  const target = (await loadTargets(job.file)).find((candidate) => candidate.name === job.name);
  if (!target || !parentPort) {
    throw new Error(`fuzz target ${job.name} not found in ${job.file}`);
  }
  const running = new Int32Array(job.progress);
  const startedAt = new Float64Array(job.clock);
  const random = prng(job.seed);
  let ok = 0;
  let rejected = 0;
  let slowestMs = 0;
  let slowestCase = -1;
  const begin = performance.now();
  for (let i = 0; i < job.cases; i++) {
    const input = mutate(target.seeds, random);
    const start = Date.now();
    startedAt[0] = start;
    Atomics.store(running, 0, i);
    try {
      target.run(input);
      ok++;
    } catch (error) {
      if (!isExpectedMediaError(error)) {
        const report: Report = {
          kind: 'error',
          caseIndex: i,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
          hex: Buffer.from(input).toString('hex'),
        };
        parentPort.postMessage(report);
        return;
      }
      rejected++;
    }
    const took = Date.now() - start;
    if (took > slowestMs) {
      slowestMs = took;
      slowestCase = i;
    }
  }
  Atomics.store(running, 0, -1);
  const report: Report = {
    kind: 'done',
    ok,
    rejected,
    elapsedMs: performance.now() - begin,
    slowestMs,
    slowestCase,
    heapMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
  parentPort.postMessage(report);
}

/** Every `*.fuzz.ts` under a directory. */
function findFuzzFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      findFuzzFiles(path, out);
    } else if (name.endsWith('.fuzz.ts')) {
      out.push(path);
    }
  }
  return out.sort();
}

/** Parses `--name value` options. */
function options(argv: readonly string[]): {
  cases: number;
  seed: number;
  file: string;
  filter: string;
  timeoutMs: number;
} {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (flag: string, fallback: number) => {
    const raw = value(flag);
    const parsed = raw === undefined ? fallback : Number(raw.replaceAll('_', ''));
    if (!Number.isFinite(parsed) || parsed < 0) {
      throw new Error(`${flag} needs a non-negative number, got ${raw}`);
    }
    return parsed;
  };
  return {
    cases: number('--cases', 2_000_000),
    seed: number('--seed', 1),
    file: value('--file') ?? '',
    filter: value('--filter') ?? '',
    timeoutMs: number('--timeout-ms', 1000),
  };
}

/** Rebuilds the input of case `index` (the mutator is deterministic per seed). */
function replayInput(target: FuzzTarget, seed: number, index: number): string {
  const random = prng(seed);
  let input: Uint8Array = new Uint8Array(0);
  for (let i = 0; i <= index; i++) {
    input = mutate(target.seeds, random);
  }
  return Buffer.from(input).toString('hex');
}

/** Runs one target in a worker; resolves to an error text or undefined. */
function runInWorker(file: string, target: FuzzTarget, opts: ReturnType<typeof options>): Promise<string | undefined> {
  const job: Job = {
    file,
    name: target.name,
    cases: opts.cases,
    seed: opts.seed,
    progress: new SharedArrayBuffer(4),
    clock: new SharedArrayBuffer(8),
  };
  new Int32Array(job.progress)[0] = -1;
  const running = new Int32Array(job.progress);
  const startedAt = new Float64Array(job.clock);
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`,
    { eval: true, workerData: job },
  );
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: string | undefined) => {
      if (!settled) {
        settled = true;
        clearInterval(watchdog);
        void worker.terminate();
        resolve(result);
      }
    };
    const watchdog = setInterval(() => {
      const index = Atomics.load(running, 0);
      const started = startedAt[0] ?? 0;
      if (index >= 0 && started > 0 && Date.now() - started > opts.timeoutMs) {
        finish(
          `case ${index} (seed ${opts.seed}) ran over ${opts.timeoutMs} ms; input ${replayInput(target, opts.seed, index)}`,
        );
      }
    }, 50);
    worker.on('message', (report: Report) => {
      if (report.kind === 'error') {
        finish(`case ${report.caseIndex} (seed ${opts.seed}) threw ${report.message}\ninput ${report.hex}`);
        return;
      }
      const rate = Math.round(opts.cases / (report.elapsedMs / 1000));
      console.log(
        `  ${target.name}: ${opts.cases} cases, ${rate.toLocaleString('en')} cases/s, ${report.ok} accepted, ` +
          `${report.rejected} rejected, slowest ${report.slowestMs} ms (case ${report.slowestCase}), heap ${report.heapMb.toFixed(1)} MB`,
      );
      finish(report.slowestMs > opts.timeoutMs ? `slowest case took ${report.slowestMs} ms` : undefined);
    });
    worker.on('error', (error) => finish(`worker failed: ${error.stack ?? error.message}`));
    worker.on('exit', (code) => finish(code === 0 ? 'worker exited without a report' : `worker exited with ${code}`));
  });
}

/** Main thread: discovers the targets and runs them one after another. */
async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const files = findFuzzFiles(join(root, 'packages/media/src')).filter((file) =>
    relative(root, file).includes(opts.file),
  );
  console.log(
    `fuzz: ${files.length} files, ${opts.cases} cases per target, seed ${opts.seed}, hang limit ${opts.timeoutMs} ms`,
  );
  const failures: string[] = [];
  let targets = 0;
  const begin = performance.now();
  for (const file of files) {
    console.log(relative(root, file));
    for (const target of await loadTargets(file)) {
      if (!target.name.includes(opts.filter)) {
        continue;
      }
      targets++;
      const failure = await runInWorker(file, target, opts);
      if (failure) {
        console.log(`  FAIL ${target.name}: ${failure}`);
        failures.push(`${target.name}: ${failure}`);
      }
    }
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const seconds = (performance.now() - begin) / 1000;
  console.log(
    `fuzz: ${targets} targets in ${seconds.toFixed(1)} s, peak RSS ${peakRssMb.toFixed(0)} MB, ${failures.length} failed`,
  );
  process.exitCode = failures.length > 0 ? 1 : 0;
}

if (isMainThread) {
  await main();
} else {
  await runJob(workerData as Job);
}
