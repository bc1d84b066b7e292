#!/usr/bin/env node
/**
 * Fails when an exported declaration in packages/, e2e/support/, bench/ or scripts/ has no doc
 * comment (`/** … *\/`) right above it (the project's rule: a one-line doc comment on every
 * export). Test files and generated code (`generated/` directories, from `npm run codegen`) are exempt.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const roots = [
  'packages/media/src',
  'packages/server/src',
  'packages/dashboard/src',
  'e2e/support',
  'bench',
  'scripts',
];
const DECLARATION =
  /^export\s+(default\s+)?(async\s+)?(abstract\s+)?(function\*?|class|const|let|var|interface|type|enum)\s/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated' || name.startsWith('.')) {
      continue;
    }
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      yield* files(path);
    } else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const missing = [];
for (const base of roots) {
  for (const file of files(join(root, base))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!DECLARATION.test(line)) {
        return;
      }
      let previous = index - 1;
      while (previous >= 0 && /^\s*(@|\/\/ biome-ignore)/.test(lines[previous] ?? '')) {
        previous--;
      }
      if (!/\*\/\s*$/.test(lines[previous] ?? '')) {
        missing.push(`${relative(root, file)}:${index + 1}: ${line.trim().slice(0, 80)}`);
      }
    });
  }
}
if (missing.length > 0) {
  console.error(`${missing.length} exported declarations lack a doc comment:\n${missing.join('\n')}`);
  process.exit(1);
}
console.log('every export has a doc comment');
