import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { publishAfterCommit, type StageEvent } from './after-commit.js';
import { EventBus } from './event-bus.js';

describe('publishAfterCommit (real PGlite transactions)', () => {
  let db: PGlite;
  before(async () => {
    db = await PGlite.create();
    await db.exec('CREATE TABLE streams (id text PRIMARY KEY, tenant_id text NOT NULL, status text NOT NULL)');
    await db.exec(`INSERT INTO streams VALUES ('s-1', 't-1', 'OFFLINE')`);
  });
  after(async () => {
    await db.close();
  });

  it('publishes staged events only after the commit, when the change is visible to others', async () => {
    const bus = new EventBus();
    const seenStatus: string[] = [];
    let publishedInsideTransaction = false;
    let inside = false;
    bus.subscribe({ tenantId: 't-1', streamId: 's-1' }, () => {
      publishedInsideTransaction ||= inside;
      // A listener reacting to the event reads what it describes.
      void db.query<{ status: string }>(`SELECT status FROM streams WHERE id = 's-1'`).then((result) => {
        seenStatus.push(result.rows[0]?.status ?? 'missing');
      });
    });
    await publishAfterCommit(bus, (stage) =>
      db.transaction(async (tx) => {
        inside = true;
        await tx.query(`UPDATE streams SET status = 'LIVE' WHERE id = 's-1'`);
        stage('stream.live', { tenantId: 't-1', streamId: 's-1' });
        inside = false;
      }),
    );
    await db.query('SELECT 1');
    assert.equal(publishedInsideTransaction, false);
    assert.deepEqual(seenStatus, ['LIVE']);
  });

  it('publishes nothing when the transaction rolls back', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe({ tenantId: 't-1' }, (e) => seen.push(e.name));
    await assert.rejects(
      publishAfterCommit(bus, (stage) =>
        db.transaction(async (tx) => {
          await tx.query(`UPDATE streams SET status = 'OFFLINE' WHERE id = 's-1'`);
          stage('stream.offline', { tenantId: 't-1', streamId: 's-1' });
          throw new Error('constraint failed');
        }),
      ),
      /constraint failed/,
    );
    assert.deepEqual(seen, []);
    const result = await db.query<{ status: string }>(`SELECT status FROM streams WHERE id = 's-1'`);
    assert.equal(result.rows[0]?.status, 'LIVE');
  });

  it('refuses an event staged after the transaction finished', async () => {
    let captured: StageEvent | undefined;
    await publishAfterCommit(new EventBus(), async (stage) => {
      captured = stage;
    });
    assert.throws(
      () => captured?.('stream.live', { tenantId: 't-1', streamId: 's-1' }),
      /after its transaction finished/,
    );
  });
});
