/**
 * The API as GraphQL tools see it: GraphQL Code Generator, run as its own CLI process, fetches
 * the schema from the running server's URL (its URL loader sends the standard introspection
 * query) and generates TypeScript types for the schema's types. (The standard query over HTTP is
 * in packages/server/src/graphql/limits/transport.test.ts; the playground's Docs pane in Chromium
 * in packages/server/src/http/playground/playground.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { spawnTracked } from './support/processes.js';

const require = createRequire(import.meta.url);
const CODEGEN_BIN = join(require.resolve('@graphql-codegen/cli/package.json'), '..', 'cjs', 'bin.js');

describe('GraphQL tools against the running server', () => {
  let server: TestServer;
  let dir = '';
  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'graphql-tools-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('graphql-codegen generates types from the server URL', async () => {
    const output = join(dir, 'types.ts');
    const config = join(dir, 'codegen.json');
    writeFileSync(
      config,
      JSON.stringify({ schema: `${server.baseUrl}/graphql`, generates: { [output]: { plugins: ['typescript'] } } }),
    );
    const codegen = spawnTracked(process.execPath, [CODEGEN_BIN, '--config', config, '--silent'], {
      ...process.env,
      NO_COLOR: '1',
    });
    assert.equal(await codegen.exited, 0, `graphql-codegen failed: ${codegen.stderr()} ${codegen.stdout()}`);
    const types = readFileSync(output, 'utf8');
    for (const type of ['Query', 'Mutation', 'Subscription', 'Stream', 'StreamsConnection', 'ValidationError']) {
      assert.match(types, new RegExp(`^export type ${type} = `, 'm'), `generated types have ${type}`);
    }
    assert.match(types, /^export type CreateStreamInput = \{/m, 'input types too');
  });
});
