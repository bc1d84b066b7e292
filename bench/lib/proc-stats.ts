/**
 * CPU time and resident memory of processes from Linux procfs (proc(5): /proc/<pid>/stat fields
 * 14–15 utime/stime in clock ticks, /proc/<pid>/status VmRSS, /proc/stat for the whole machine).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (sysconf _SC_CLK_TCK, 100 on Linux). */
export const CLOCK_TICKS = readClockTicks();

function readClockTicks(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU time of one process in clock ticks, or undefined once it has exited. */
export function cpuTicks(pid: number): number | undefined {
  const fields = statFields(pid);
  // After the name: state(3) ppid(4) … utime(14) stime(15) → indexes 11 and 12.
  return fields ? Number(fields[11]) + Number(fields[12]) : undefined;
}

/**
 * Nanoseconds the process's main thread (a Node event loop, nginx's worker loop) spent runnable
 * but waiting for a CPU (/proc/<pid>/schedstat, second field), or undefined once it has exited.
 */
export function runQueueWaitNs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Resident set size of one process in bytes (VmRSS), or 0 once it has exited. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `pid` and every live descendant (nginx master and its workers, a server and its children). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const child = Number(name);
    if (!Number.isInteger(child)) {
      continue;
    }
    const parent = Number(statFields(child)?.[1]);
    const siblings = children.get(parent) ?? [];
    siblings.push(child);
    children.set(parent, siblings);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** What a sampling window measured. */
export interface CpuWindow {
  /** CPU of each named group over the window, percent of one core. */
  readonly percent: Readonly<Record<string, number>>;
  /** Time the main threads of each group waited for a CPU, percent of the window (summed over processes). */
  readonly waitPercent: Readonly<Record<string, number>>;
  /** RSS of each named group at the end of the window, bytes (sum over its processes). */
  readonly rss: Readonly<Record<string, number>>;
  /** Busy CPU of the whole machine over the window, percent of one core (all cores summed). */
  readonly machinePercent: number;
  /** Window length in seconds. */
  readonly seconds: number;
}

/**
 * Measures named process groups over `seconds`: CPU ticks at both ends (processes that exit in
 * between count what they used until their last reading), RSS at the end.
 */
export async function sampleWindow(
  groups: Readonly<Record<string, () => number[]>>,
  seconds: number,
): Promise<CpuWindow> {
  const read = (): Map<string, Map<number, { ticks: number; waitNs: number }>> =>
    new Map(
      Object.entries(groups).map(([name, pids]) => [
        name,
        new Map(
          pids().flatMap((pid) => {
            const ticks = cpuTicks(pid);
            return ticks === undefined ? [] : [[pid, { ticks, waitNs: runQueueWaitNs(pid) ?? 0 }] as const];
          }),
        ),
      ]),
    );
  const startMachine = machineTicks();
  const startAt = performance.now();
  const start = read();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const end = read();
  const elapsed = (performance.now() - startAt) / 1000;
  const endMachine = machineTicks();
  const percent: Record<string, number> = {};
  const waitPercent: Record<string, number> = {};
  const rss: Record<string, number> = {};
  for (const [name, after] of end) {
    const before = start.get(name) ?? new Map<number, { ticks: number; waitNs: number }>();
    let ticks = 0;
    let waitNs = 0;
    for (const [pid, value] of after) {
      const was = before.get(pid) ?? value;
      ticks += value.ticks - was.ticks;
      waitNs += value.waitNs - was.waitNs;
    }
    percent[name] = (ticks / CLOCK_TICKS / elapsed) * 100;
    waitPercent[name] = (waitNs / 1e9 / elapsed) * 100;
    rss[name] = [...after.keys()].reduce((sum, pid) => sum + rssBytes(pid), 0);
  }
  const machineShare = (endMachine.busy - startMachine.busy) / Math.max(1, endMachine.total - startMachine.total);
  return { percent, waitPercent, rss, machinePercent: machineShare * cpuCount() * 100, seconds: elapsed };
}

function cpuCount(): number {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  return lines.filter((line) => /^cpu\d/.test(line)).length || 1;
}
