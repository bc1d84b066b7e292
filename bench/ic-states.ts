/**
 * Final inline-cache state of every property access site, from V8's IC log (ADR 0094). Run a server
 * with `--log-ic --log-code --no-logfile-per-isolate --logfile=<file>` (e.g. through
 * `bench/side-by-side.ts` with `SBS_ARGS_<name>`), then:
 *   node --import tsx bench/ic-states.ts <log> [<other log>] [FILTER]
 * With one log: every site in code whose name contains FILTER (default `packages/media`) whose last
 * transition left it polymorphic (P) or megamorphic (N), with its function, line:column, key and the
 * time of its last transition. With two logs: the sites both processes ran whose final state differs
 * (first log's state, second log's state), for every function (FILTER ignored). An IC log line is
 * `<kind>IC,pc,time,line,column,old,new,map,key,…`; its `pc` is mapped to the function it runs in
 * through the log's `code-creation` and `code-move` records.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

interface Site {
  readonly fn: string;
  readonly at: string;
  readonly kind: string;
  readonly key: string;
}

/** Each site's final state and last transition time (µs), keyed by function, position, IC kind and key. */
async function finalStates(path: string): Promise<Map<string, { site: Site; state: string; time: number }>> {
  const codes = new Map<number, { size: number; name: string }>();
  let starts: number[] | undefined;
  const find = (pc: number): string => {
    starts ??= [...codes.keys()].sort((a, b) => a - b);
    let low = 0;
    let high = starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((starts[mid] as number) <= pc) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    const start = starts[found];
    const code = start === undefined ? undefined : codes.get(start);
    return code && start !== undefined && pc < start + code.size ? code.name : '?';
  };
  const states = new Map<string, { site: Site; state: string; time: number }>();
  for await (const line of createInterface({ input: createReadStream(path) })) {
    const f = line.split(',');
    const type = f[0] ?? '';
    if (type === 'code-creation') {
      const start = Number.parseInt(f[4] ?? '', 16);
      const size = Number(f[5]);
      if (Number.isFinite(start) && Number.isFinite(size)) {
        codes.set(start, { size, name: (f[6] ?? '').trim() });
        starts = undefined;
      }
    } else if (type === 'code-move') {
      const from = Number.parseInt(f[1] ?? '', 16);
      const code = codes.get(from);
      if (code) {
        codes.delete(from);
        codes.set(Number.parseInt(f[2] ?? '', 16), code);
        starts = undefined;
      }
    } else if (type.endsWith('IC')) {
      const fn = find(Number.parseInt(f[1] ?? '', 16)).replace(/file:\/\/\S*\/(packages|node_modules)\//, '');
      const site = { fn, at: `${f[3]}:${f[4]}`, kind: type, key: f[8] ?? '' };
      states.set(`${fn}|${site.at}|${type}|${site.key}`, { site, state: f[6] ?? '', time: Number(f[2]) });
    }
  }
  return states;
}

const [first, second, filterArg] = process.argv.slice(2);
if (!first) {
  throw new Error('usage: bench/ic-states.ts <ic log> [<other ic log>] [filter]');
}
const twoLogs = second !== undefined && existsSync(second);
const filter = (twoLogs ? filterArg : second) ?? 'packages/media';
const ours = await finalStates(first);
const row = (site: Site) => `${site.fn.padEnd(80)} L${site.at.padEnd(8)} ${site.kind.padEnd(13)} ${site.key}`;
if (twoLogs) {
  const theirs = await finalStates(second);
  for (const [id, { site, state }] of ours) {
    const other = theirs.get(id)?.state;
    if (other !== undefined && other !== state && (state === 'P' || state === 'N' || other === 'P' || other === 'N')) {
      console.log(`${state} ${other} ${row(site)}`);
    }
  }
} else {
  for (const { site, state, time } of ours.values()) {
    if ((state === 'P' || state === 'N') && site.fn.includes(filter.replace(/^packages\//, ''))) {
      console.log(`${state} ${row(site)} last ${(time / 1e6).toFixed(1)} s`);
    }
  }
}
