/**
 * Fails when the committed generated GraphQL files are stale: prints the schema afresh from the
 * modules, runs graphql-codegen in memory with codegen.ts, and compares both outputs with
 * packages/server/src/graphql/generated/. Part of `npm run lint`; fix with `npm run codegen`.
 */
import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import config from '../codegen.js';
import { printAirwaveSchema, SCHEMA_FILE } from './print-schema.js';

const root = new URL('..', import.meta.url);

function committed(path: string): string {
  try {
    return readFileSync(new URL(path, root), 'utf8');
  } catch {
    return '';
  }
}

const schema = printAirwaveSchema();
const expected = [{ filename: SCHEMA_FILE, content: schema }];
for (const output of await generate({ ...config, schema, silent: true }, false)) {
  expected.push({ filename: output.filename, content: output.content });
}
const stale = expected.filter((file) => committed(file.filename) !== file.content).map((file) => file.filename);
if (stale.length > 0) {
  console.error(`stale generated GraphQL files (run npm run codegen): ${stale.join(', ')}`);
  process.exit(1);
}
console.log('generated GraphQL files are up to date');
