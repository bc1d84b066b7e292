/**
 * node:test reporter used by scripts/run-tests.mjs beside `spec`: after the run, prints each test
 * file's wall time (its process, start to exit) slowest first, and the slowest top-level tests, so
 * a slow suite shows where its time goes.
 */
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SLOWEST_TESTS = 15;

/** Collects file and top-level test durations from the event stream; yields one summary at the end. */
export default async function* testTimes(source) {
  const files = [];
  const tests = [];
  for await (const event of source) {
    if (event.type !== 'test:complete' || event.data.nesting !== 0 || !event.data.file) {
      continue;
    }
    const file = relative(root, event.data.file);
    const seconds = (event.data.details?.duration_ms ?? 0) / 1000;
    if (event.data.name === relative(process.cwd(), event.data.file) || event.data.name === event.data.file) {
      files.push({ file, seconds });
    } else {
      tests.push({ name: `${file} › ${event.data.name}`, seconds });
    }
  }
  const sum = files.reduce((total, entry) => total + entry.seconds, 0);
  const lines = [`\n# time per file (${files.length} files, ${sum.toFixed(1)} s summed):`];
  for (const entry of files.sort((a, b) => b.seconds - a.seconds)) {
    lines.push(`#   ${entry.seconds.toFixed(1).padStart(7)} s  ${entry.file}`);
  }
  lines.push(`# slowest tests:`);
  for (const entry of tests.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_TESTS)) {
    lines.push(`#   ${entry.seconds.toFixed(1).padStart(7)} s  ${entry.name}`);
  }
  yield `${lines.join('\n')}\n`;
}
