/**
 * The database-backed login limiter on every backend, with an injected clock: the limit per
 * email and per IP, the retry hint, the window sliding past old attempts, and success resetting
 * the email's count.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../db/database.js';
import { createScratchDatabase, type ScratchDatabase, testBackends } from '../../testing/databases.js';
import { openFreshDatabase } from '../../testing/pglite-template.js';
import { RateLimitedError } from '../errors.js';
import { AccountsStore } from './accounts.store.js';
import { LoginLimiter } from './login-limiter.js';

for (const backend of testBackends()) {
  describe(`login limiter on ${backend.name}`, () => {
    let dataDir: string;
    let scratch: ScratchDatabase | undefined;
    let database: Database;
    let now = Date.parse('2026-01-01T00:00:00Z');
    let limiter: LoginLimiter;
    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'airwave-limiter-'));
      scratch = backend.name === 'postgres' ? await createScratchDatabase() : undefined;
      database = await openFreshDatabase(dataDir, scratch?.url);
      limiter = new LoginLimiter(
        new AccountsStore(database.db),
        { perEmail: 3, perIp: 5, windowSeconds: 60 },
        () => new Date(now),
      );
    });
    after(async () => {
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('the fourth attempt for an email within the window is refused, with the time until one is admitted', async () => {
      for (let i = 0; i < 3; i++) {
        await limiter.admit('Limit@Example.com', `10.0.0.${i}`);
        now += 10_000;
      }
      // Attempts at 0, 10 and 20 s plus this refused one at 30 s: a fifth is admitted once the
      // one at 10 s leaves the window, at 70 s.
      await assert.rejects(
        limiter.admit('limit@example.com', '10.0.0.9'),
        (error: unknown) => error instanceof RateLimitedError && error.retryAfterSeconds === 40,
      );
      now += 31_000;
      // Attempts at 0, 10 and 20 s plus this refused one at 30 s: a fifth is admitted once the
      // one at 10 s leaves the window, at 70 s.
      await assert.rejects(
        limiter.admit('limit@example.com', '10.0.0.9'),
        RateLimitedError,
        'refused attempts count too',
      );
      now += 60_000;
      await limiter.admit('limit@example.com', '10.0.0.9');
    });

    test('attempts from one IP are limited across emails', async () => {
      for (let i = 0; i < 5; i++) {
        await limiter.admit(`user${i}@example.com`, '192.0.2.1');
      }
      await assert.rejects(limiter.admit('user9@example.com', '192.0.2.1'), RateLimitedError);
      await limiter.admit('user9@example.com', '192.0.2.2');
    });

    test('a successful login forgets the email and its own IP attempt', async () => {
      now += 3_600_000;
      await limiter.admit('ok@example.com', '198.51.100.1');
      await limiter.admit('ok@example.com', '198.51.100.1');
      const attempt = await limiter.admit('ok@example.com', '198.51.100.1');
      await attempt.succeeded();
      for (let i = 0; i < 3; i++) {
        await limiter.admit('ok@example.com', '198.51.100.2');
      }
    });
  });
}
