/**
 * A node's identity survives restarts: it is kept in `<dataDir>/node-id`, so streams this node
 * marked live before a crash are recognised as its own at the next start.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Reads this node's ID from the data directory, creating it on first start. */
export function loadNodeId(dataDir: string): string {
  const path = join(dataDir, 'node-id');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (UUID.test(existing)) {
      return existing;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  const id = randomUUID();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, `${id}\n`, { mode: 0o600 });
  return id;
}
