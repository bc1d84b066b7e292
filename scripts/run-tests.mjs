#!/usr/bin/env node
/**
 * Runs the test suite with node:test through tsx: unit tests beside the code (and the benchmark
 * helpers' tests) first, then the
 * e2e tests (real ffmpeg, Chromium, servers on ephemeral ports). `--unit` runs only the first.
 * Extra arguments are file filters (substring match). The database tests run on PGlite and, when
 * one is found (scripts/test-database.mjs), on PostgreSQL too. After each group it prints the time
 * of every file and the slowest tests (scripts/test-times.mjs). AIRWAVE_TEST_CACHE_DIR names a
 * directory the run's test files share (the migrated PGlite template), removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findTestDatabase } from './test-database.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const filters = args.filter((arg) => !arg.startsWith('--'));

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) {
      continue;
    }
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      find(path, out);
    } else if (name.endsWith('.test.ts')) {
      out.push(relative(root, path));
    }
  }
  return out;
}

const select = (files) => files.filter((file) => filters.length === 0 || filters.some((f) => file.includes(f))).sort();
const unitFiles = [...find(join(root, 'packages')), ...find(join(root, 'bench'))];
const groups = [{ name: 'unit', files: select(unitFiles), concurrency: 2 }];
if (!unitOnly) {
  groups.push({ name: 'e2e', files: select(find(join(root, 'e2e'))), concurrency: 2 });
}

const postgres = await findTestDatabase();
// Made once per run and shared by the test files (packages/server/src/testing/pglite-template.ts).
const cacheDir = mkdtempSync(join(tmpdir(), 'airwave-test-cache-'));
const env = { ...process.env, NODE_ENV: 'test', AIRWAVE_TEST_CACHE_DIR: cacheDir };
if (postgres.url) {
  env.TEST_DATABASE_URL = postgres.url;
  console.log(`# PostgreSQL (${postgres.reason}): database tests run on PGlite and PostgreSQL`);
} else {
  env.AIRWAVE_TEST_POSTGRES_MISSING = postgres.reason;
  console.log(`# ${postgres.reason}: database tests run on PGlite only`);
}

let failed = false;
for (const group of groups) {
  const started = Date.now();
  if (group.files.length === 0) {
    continue;
  }
  console.log(`\n# ${group.name}: ${group.files.length} files`);
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${group.concurrency}`,
      '--test-timeout=300000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(root, 'scripts/test-times.mjs')}`,
      '--test-reporter-destination=stdout',
      ...group.files,
    ],
    { cwd: root, stdio: 'inherit', env },
  );
  console.log(`# ${group.name}: ${((Date.now() - started) / 1000).toFixed(1)} s wall`);
  if (result.status !== 0) {
    failed = true;
  }
}
rmSync(cacheDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
