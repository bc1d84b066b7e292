/**
 * CPU time and resident memory of processes from Linux procfs (proc(5): /proc/<pid>/stat fields
 * 14–15 utime/stime in clock ticks, /proc/<pid>/task/<tid>/stat the same for one thread,
 * /proc/<pid>/status VmRSS, /proc/<pid>/smaps_rollup Pss — the proportional set size, each shared
 * page divided among the processes mapping it, so summed over a tree shared pages count once —
 * and /proc/stat for the whole machine).
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

/** One thread of a process (`tid === pid`: its main thread, e.g. Node's event loop). */
export interface ThreadRef {
  readonly pid: number;
  readonly tid: number;
}

/** A whole process (by PID) or one of its threads. */
export type ProcRef = number | ThreadRef;

function procDir(ref: ProcRef): string {
  return typeof ref === 'number' ? `/proc/${ref}` : `/proc/${ref.pid}/task/${ref.tid}`;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(ref: ProcRef): string[] | undefined {
  try {
    const text = readFileSync(`${procDir(ref)}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * Time on a CPU of every thread of the processes `pids`, nanoseconds, keyed `<pid>/<tid>`
 * (/proc/<pid>/task/<tid>/schedstat, first field); processes or threads gone are left out.
 */
export function threadCpuNs(pids: readonly number[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        if (Number.isFinite(ns)) {
          out.set(`${pid}/${tid}`, ns);
        }
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return out;
}

/** User + system CPU time of one process (or thread) in clock ticks, or undefined once it has exited. */
export function cpuTicks(ref: ProcRef): number | undefined {
  const fields = statFields(ref);
  // After the name: state(3) ppid(4) … utime(14) stime(15) → indexes 11 and 12.
  return fields ? Number(fields[11]) + Number(fields[12]) : undefined;
}

/**
 * CPU time, clock ticks, of the children that `pid`'s tree started and already reaped
 * (cutime + cstime, fields 16–17, summed over the tree): short-lived helpers such as ffmpeg
 * image jobs that a window's two readings of live processes never see.
 */
export function reapedChildTicks(pid: number): number {
  let ticks = 0;
  for (const each of processTree(pid)) {
    const fields = statFields(each);
    ticks += fields ? Number(fields[13]) + Number(fields[14]) : 0;
  }
  return ticks;
}

/**
 * Nanoseconds the process's main thread (a Node event loop, nginx's worker loop) spent runnable
 * but waiting for a CPU (/proc/<pid>/schedstat, second field), or undefined once it has exited.
 */
export function runQueueWaitNs(ref: ProcRef): number | undefined {
  try {
    const pid = typeof ref === 'number' ? ref : ref.pid;
    const fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Resident set size of one process in bytes (VmRSS), or 0 once it has exited or for a thread. */
export function rssBytes(ref: ProcRef): number {
  if (typeof ref !== 'number') {
    return 0;
  }
  const pid = ref;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size of one process in bytes (Pss of smaps_rollup), or 0 once it has exited or for a thread. */
export function pssBytes(ref: ProcRef): number {
  if (typeof ref !== 'number') {
    return 0;
  }
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${ref}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** RSS and PSS summed over `pid`'s process tree, bytes, and how many processes it has. */
export function treeMemory(pid: number): { readonly rss: number; readonly pss: number; readonly processes: number } {
  const pids = processTree(pid);
  let rss = 0;
  let pss = 0;
  for (const each of pids) {
    rss += rssBytes(each);
    pss += pssBytes(each);
  }
  return { rss, pss, processes: pids.length };
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

/** The main thread of process `pid` (for Node: the event loop; the rest are V8 and libuv helpers). */
export function mainThread(pid: number): ThreadRef[] {
  return [{ pid, tid: pid }];
}

/**
 * Busy, stolen and total jiffies of the whole machine (first line of /proc/stat, proc(5)). Busy
 * includes steal: time a virtual CPU was ready to run but the hypervisor ran something else.
 */
export function machineTicks(): { busy: number; steal: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, steal: values[7] ?? 0, total };
}

/** What a sampling window measured. */
export interface CpuWindow {
  /** CPU of each named group over the window, percent of one core. */
  readonly percent: Readonly<Record<string, number>>;
  /** Time the main threads of each group waited for a CPU, percent of the window (summed over processes). */
  readonly waitPercent: Readonly<Record<string, number>>;
  /** RSS of each named group at the end of the window, bytes (sum over its processes). */
  readonly rss: Readonly<Record<string, number>>;
  /** PSS of each named group at the end of the window, bytes (sum over its processes). */
  readonly pss: Readonly<Record<string, number>>;
  /** Busy CPU of the whole machine over the window, percent of one core (all cores summed). */
  readonly machinePercent: number;
  /** Of `machinePercent`, what the hypervisor stole (runnable virtual CPUs not running), same unit. */
  readonly stealPercent: number;
  /** Window length in seconds. */
  readonly seconds: number;
}

/**
 * Measures named groups of processes or threads over `seconds`: CPU ticks at both ends (those that
 * exit in between count what they used until their last reading), RSS at the end.
 */
export async function sampleWindow(
  groups: Readonly<Record<string, () => ProcRef[]>>,
  seconds: number,
): Promise<CpuWindow> {
  type Reading = { readonly ref: ProcRef; readonly ticks: number; readonly waitNs: number };
  const read = (): Map<string, Map<string, Reading>> =>
    new Map(
      Object.entries(groups).map(([name, refs]) => [
        name,
        new Map(
          refs().flatMap((ref) => {
            const ticks = cpuTicks(ref);
            return ticks === undefined
              ? []
              : [[procDir(ref), { ref, ticks, waitNs: runQueueWaitNs(ref) ?? 0 }] as const];
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
  const pss: Record<string, number> = {};
  for (const [name, after] of end) {
    const before = start.get(name) ?? new Map<string, Reading>();
    let ticks = 0;
    let waitNs = 0;
    for (const [key, value] of after) {
      const was = before.get(key) ?? value;
      ticks += value.ticks - was.ticks;
      waitNs += value.waitNs - was.waitNs;
    }
    percent[name] = (ticks / CLOCK_TICKS / elapsed) * 100;
    waitPercent[name] = (waitNs / 1e9 / elapsed) * 100;
    rss[name] = [...after.values()].reduce((sum, value) => sum + rssBytes(value.ref), 0);
    pss[name] = [...after.values()].reduce((sum, value) => sum + pssBytes(value.ref), 0);
  }
  const machineTotal = Math.max(1, endMachine.total - startMachine.total);
  const share = (ticks: number): number => (ticks / machineTotal) * cpuCount() * 100;
  return {
    percent,
    waitPercent,
    rss,
    pss,
    machinePercent: share(endMachine.busy - startMachine.busy),
    stealPercent: share(endMachine.steal - startMachine.steal),
    seconds: elapsed,
  };
}

/** A table cell of the machine's load over a window: busy % (of it stolen by the hypervisor %) / load1. */
export function machineCell(window: CpuWindow, load1: number): string {
  return `${window.machinePercent.toFixed(0)} (${window.stealPercent.toFixed(0)}) / ${load1.toFixed(1)}`;
}

function cpuCount(): number {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  return lines.filter((line) => /^cpu\d/.test(line)).length || 1;
}
