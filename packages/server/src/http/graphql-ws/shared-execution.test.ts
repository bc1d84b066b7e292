import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema, type ExecutionResult, parse } from 'graphql';
import { EventQueue } from '../../events/event-queue.js';
import { sharedSubscribe } from './shared-execution.js';

function setup() {
  const schema = buildSchema(
    'type Query { ok: Boolean } type Subscription { tick(id: ID!): Tick! } type Tick { n: Int! label: String! }',
  );
  const queues: EventQueue<object>[] = [];
  let resolves = 0;
  const fields = schema.getSubscriptionType()?.getFields();
  const tick = fields?.tick;
  assert.ok(tick);
  tick.subscribe = (_root, args: { id: string }) => {
    if (args.id === 'missing') {
      throw new Error('no such tick');
    }
    const queue = new EventQueue<object>(10, () => undefined);
    queues.push(queue);
    return queue;
  };
  tick.resolve = (event: { n: number }) => {
    resolves++;
    return { n: event.n, label: `#${event.n}` };
  };
  return { schema, queues, resolves: () => resolves };
}

async function first(iterator: unknown): Promise<unknown> {
  const result = await (iterator as AsyncIterator<ExecutionResult>).next();
  assert.equal(result.done, false);
  return JSON.parse(JSON.stringify(result.value.data));
}

describe('sharedSubscribe', () => {
  it('executes one event once per distinct document, however many subscribers receive it', async () => {
    const { schema, queues, resolves } = setup();
    const subscribe = sharedSubscribe();
    const same = parse('subscription { tick(id: "a") { n label } }');
    const other = parse('subscription { tick(id: "a") { n } }');
    const a = await subscribe({ schema, document: same });
    const b = await subscribe({ schema, document: parse('subscription { tick(id: "a") { n label } }') });
    const c = await subscribe({ schema, document: other });
    const event = { n: 7 };
    for (const queue of queues) {
      queue.push(event);
    }
    assert.deepEqual(await first(a), { tick: { n: 7, label: '#7' } });
    assert.deepEqual(await first(b), { tick: { n: 7, label: '#7' } });
    assert.deepEqual(await first(c), { tick: { n: 7 } });
    assert.equal(resolves(), 2);
  });

  it('ends the source when the subscriber returns while waiting for an event', async () => {
    const { schema, queues } = setup();
    const iterator = (await sharedSubscribe()({
      schema,
      document: parse('subscription { tick(id: "a") { n } }'),
    })) as AsyncIterableIterator<ExecutionResult>;
    const waiting = iterator.next();
    await iterator.return?.();
    assert.deepEqual(await waiting, { value: undefined, done: true });
    queues[0]?.push({ n: 1 });
    assert.equal(queues[0]?.length, 0);
  });

  it('answers subscribe-time errors as a result, without an iterator', async () => {
    const { schema } = setup();
    const result = await sharedSubscribe()({ schema, document: parse('subscription { tick(id: "missing") { n } }') });
    assert.ok(!(Symbol.asyncIterator in result));
    assert.equal((result as ExecutionResult).errors?.[0]?.message, 'no such tick');
  });
});
