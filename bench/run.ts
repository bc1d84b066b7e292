/**
 * `npm run bench [-- name…]`: runs benchmark sections (`bench/sections/*.ts`; all, or those whose
 * file name contains a given name), each measuring Airwave side by side with its peers in one
 * run, and writes each section's Markdown into bench/RESULTS.md, replacing that section only.
 * RESULTS.md is read again just before each write, so runs of other sections that finished in the
 * meantime keep their results. A section exports `title` and `run(): Promise<string>`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** One benchmark section. */
export interface BenchSection {
  readonly title: string;
  run(): Promise<string>;
}

const dir = fileURLToPath(new URL('./sections/', import.meta.url));
const resultsPath = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();

const HEADER = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (one section at a time with `npm run bench -- <name>`). Every table',
  'compares Airwave with the peers named in it, measured in the same run on the same machine.',
  '',
].join('\n');

/** Splits RESULTS.md into its sections, keyed by title, in order. */
function readSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(resultsPath)) {
    return sections;
  }
  const text = readFileSync(resultsPath, 'utf8');
  for (const chunk of text.split(/^## /m).slice(1)) {
    const newline = chunk.indexOf('\n');
    sections.set(chunk.slice(0, newline).trim(), chunk.slice(newline + 1).trim());
  }
  return sections;
}

for (const file of files) {
  const section = (await import(`${dir}${file}`)) as BenchSection;
  console.log(`# ${section.title}`);
  const started = new Date().toISOString();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  let body: string;
  try {
    body = (await section.run()).trim();
    console.log(body);
  } catch (error) {
    body = `Failed: ${String(error)}`;
    console.error(`${section.title} failed:`, error);
    process.exitCode = 1;
  }
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
  const sections = readSections();
  sections.set(section.title, `_Run ${started} on ${machine}; load average at the end ${load}._\n\n${body}`);
  const out = [...sections].map(([title, text]) => `## ${title}\n\n${text}\n`).join('\n');
  writeFileSync(resultsPath, `${HEADER}\n${out}`);
}
console.log(`wrote ${resultsPath}`);
