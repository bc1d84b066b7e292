/**
 * The cost rule on a small schema: scalars 0, objects 1, connections 2 + first × per-item,
 * fragments expanded, variables used when given, the default page size when not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, parse, validate } from 'graphql';
import { costLimitRule, operationCost } from './cost-limit.js';

const schema = buildSchema(`
  type Query { ping: Boolean me: User thingsConnection(page: Page): ThingConnection things: [Thing!]! }
  input Page { first: Int last: Int after: String }
  type User { id: ID! name: String friend: User }
  type Thing { id: ID! owner: User }
  type ThingEdge { cursor: String! node: Thing! }
  type ThingConnection { edges: [ThingEdge!]! nodes: [Thing!]! totalCount: Int! }
`);

function cost(source: string, variables?: Record<string, unknown>): number {
  const document = parse(source);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      operation = definition;
    }
  }
  assert.ok(operation);
  return operationCost(schema, operation, fragments, variables);
}

test('scalars cost 0, objects 1 plus their selection', () => {
  assert.equal(cost('{ ping }'), 0);
  assert.equal(cost('{ me { id name } }'), 1);
  assert.equal(cost('{ me { friend { friend { id } } } }'), 3);
  assert.equal(cost('{ things { id owner { id } } }'), 2);
});

test('connections cost 2 + first × per-item, default page 50', () => {
  assert.equal(cost('{ thingsConnection(page: {first: 10}) { totalCount } }'), 2);
  assert.equal(cost('{ thingsConnection(page: {first: 10}) { edges { node { id } } } }'), 2 + 10 * 2);
  assert.equal(cost('{ thingsConnection(page: {first: 10}) { nodes { id owner { id } } } }'), 2 + 10 * 2);
  assert.equal(cost('{ thingsConnection { nodes { id } } }'), 2 + 50);
  assert.equal(cost('{ thingsConnection(page: {last: 3}) { nodes { id } } }'), 2 + 3);
});

test('variables give page sizes when known; fragments are expanded', () => {
  const source =
    'query($n: Int) { thingsConnection(page: {first: $n}) { ...Items } } fragment Items on ThingConnection { nodes { id } }';
  assert.equal(cost(source, { n: 400 }), 402);
  assert.equal(cost(source), 52, 'unknown variables count as the default page');
  assert.equal(cost('query($p: Page) { thingsConnection(page: $p) { nodes { id } } }', { p: { first: 7 } }), 9);
});

test('the rule reports operations over the limit with VALIDATION_ERROR', () => {
  const document = parse('query Big { thingsConnection(page: {first: 500}) { edges { node { id } } } }');
  const [error, ...rest] = validate(schema, document, [costLimitRule(1000)]);
  assert.equal(rest.length, 0);
  assert.equal(error?.extensions.code, 'VALIDATION_ERROR');
  assert.equal(error?.extensions.cost, 1002);
  assert.match(error?.message ?? '', /query Big costs 1002, more than the limit of 1000/);
  assert.deepEqual(
    validate(schema, parse('{ thingsConnection(page: {first: 499}) { edges { node { id } } } }'), [
      costLimitRule(1000),
    ]),
    [],
  );
});
