/**
 * Writes the GraphQL schema the server serves (every module's SDL merged by `buildTypeDefs()`)
 * to packages/server/src/graphql/generated/schema.graphql, the input of `graphql-codegen`
 * (`npm run codegen` runs this first). `printAirwaveSchema` is shared with check-codegen.ts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildTypeDefs } from '@airwave/server/graphql/schema';
import { buildSchema, printSchema } from 'graphql';

/** Where the printed schema lives (relative to the repository root). */
export const SCHEMA_FILE = 'packages/server/src/graphql/generated/schema.graphql';

/** The merged SDL (type extensions folded in), printed in graphql-js's canonical form. */
export function printAirwaveSchema(): string {
  return `${printSchema(buildSchema(buildTypeDefs()))}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL(`../${SCHEMA_FILE}`, import.meta.url), printAirwaveSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
