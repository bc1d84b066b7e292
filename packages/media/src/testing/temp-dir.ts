/** Test-only temporary directories, made before and removed after the tests of one suite (or file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';

/** A temporary directory `<prefix>…` for the enclosing suite: made by a `before` hook, removed by an `after` hook. */
export function suiteTempDir(prefix: string): { readonly path: string } {
  let path = '';
  before(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => {
    if (path) {
      rmSync(path, { recursive: true, force: true });
    }
  });
  return {
    get path(): string {
      return path;
    },
  };
}
