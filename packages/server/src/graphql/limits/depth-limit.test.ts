import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, getIntrospectionQuery, Kind, parse, specifiedRules, validate } from 'graphql';
import { depthLimitRule, INTROSPECTION_DEPTH_LIMIT, operationDepths, QUERY_DEPTH_LIMIT } from './depth-limit.js';

const schema = buildSchema(`
  type Nest { nest: Nest, n: Int, items: [Nest!]! }
  type Query { nest: Nest, ping: String }
`);

/** `levels` nested `nest` fields ending in `n` (so `levels + 1` fields deep). */
const nest = (levels: number): string => (levels === 0 ? 'n' : `nest { ${nest(levels - 1)} }`);
/** `levels` nested `ofType` selections ending in `name`. */
const ofType = (levels: number): string => (levels === 0 ? 'name' : `ofType { ${ofType(levels - 1)} }`);

function errors(query: string): string[] {
  return validate(schema, parse(query), [...specifiedRules, depthLimitRule()]).map((error) => error.message);
}

function depths(query: string) {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  assert.ok(operation?.kind === Kind.OPERATION_DEFINITION);
  return operationDepths(operation, fragments);
}

describe('depth limit', () => {
  test('ordinary queries: 10 fields deep pass, 11 are refused with the depth in the message', () => {
    assert.deepEqual(errors(`{ ${nest(QUERY_DEPTH_LIMIT - 1)} }`), []);
    assert.deepEqual(errors(`{ ${nest(QUERY_DEPTH_LIMIT)} }`), [
      `query is nested ${QUERY_DEPTH_LIMIT + 1} levels deep, more than the limit of ${QUERY_DEPTH_LIMIT}`,
    ]);
  });

  test('fragments, named or inline, add no level; their fields do, wherever they are spread', () => {
    assert.deepEqual(depths('{ nest { ...A } } fragment A on Nest { ... on Nest { nest { n } } }'), {
      ordinary: 3,
      introspection: 0,
    });
    assert.equal(errors(`{ nest { ...A } } fragment A on Nest { ${nest(QUERY_DEPTH_LIMIT - 1)} }`).length, 1);
  });

  test('a fragment cycle (refused by graphql-js) does not hang the count', () => {
    const messages = errors(
      '{ nest { ...A } } fragment A on Nest { nest { ...B } } fragment B on Nest { nest { ...A } }',
    );
    assert.ok(messages.some((message) => /Cannot spread fragment "A" within itself/.test(message)));
  });

  test('every variant of the standard introspection query is answered within the introspection limit', () => {
    for (const options of [
      {},
      {
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      },
    ]) {
      const query = getIntrospectionQuery(options);
      assert.deepEqual(errors(query), [], JSON.stringify(options));
      const { introspection, ordinary } = depths(query);
      assert.equal(ordinary, 0);
      assert.ok(introspection > QUERY_DEPTH_LIMIT && introspection <= INTROSPECTION_DEPTH_LIMIT, String(introspection));
    }
  });

  test('introspection is measured apart from the ordinary fields beside it, and limited too', () => {
    assert.deepEqual(depths(`{ ping __type(name: "Nest") { fields { type { ${ofType(3)} } } } }`), {
      ordinary: 1,
      introspection: 7,
    });
    assert.deepEqual(
      errors(`{ __schema { types { fields { type { ${ofType(INTROSPECTION_DEPTH_LIMIT - 5)} } } } } }`),
      [],
    );
    assert.deepEqual(
      errors(`{ __schema { types { fields { type { ${ofType(INTROSPECTION_DEPTH_LIMIT - 4)} } } } } }`),
      [
        `introspection query is nested ${INTROSPECTION_DEPTH_LIMIT + 1} levels deep, more than the limit of ${INTROSPECTION_DEPTH_LIMIT}`,
      ],
    );
  });

  test('introspection lists nested in lists stay refused by graphql-js (MaxIntrospectionDepthRule)', () => {
    const messages = errors('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    assert.deepEqual(messages, ['Maximum introspection depth exceeded']);
  });
});
