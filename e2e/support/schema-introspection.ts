/**
 * The schema as matrix tests see it (the tenancy matrix, the hostile-string matrix): one
 * introspection query over the server's own GraphQL endpoint, types indexed by name, and the
 * helpers those tests share to walk type references and write operation documents.
 */
import assert from 'node:assert/strict';
import type { TestServer } from '@airwave/server/testing/test-server';

/** A type reference (wrapping types unwrapped through `ofType`). */
export interface TypeRef {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType: TypeRef | null;
}
/** An argument or input field. */
export interface InputValue {
  readonly name: string;
  readonly type: TypeRef;
}
/** A field of an object type. */
export interface SchemaField {
  readonly name: string;
  readonly args: InputValue[];
  readonly type: TypeRef;
}
/** One named type. */
export interface SchemaType {
  readonly name: string;
  readonly kind: string;
  readonly fields: SchemaField[] | null;
  readonly inputFields: InputValue[] | null;
  readonly possibleTypes: { name: string }[] | null;
  readonly interfaces: { name: string }[] | null;
}
/** A root type: `Query`, `Mutation` or `Subscription`, and the type that plays it. */
export interface SchemaRoot {
  readonly name: string;
  readonly type: string;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const INTROSPECTION = `{ __schema {
  queryType { name } mutationType { name } subscriptionType { name }
  types { name kind possibleTypes { name } interfaces { name }
    fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } }
    inputFields { name type { ${TYPE_REF} } } }
} }`;

/** The named type at the bottom of `ref`. */
export function named(ref: TypeRef): string {
  return ref.name ?? (ref.ofType ? named(ref.ofType) : '');
}

/** `ref` in SDL notation (`[String!]!`), for variable definitions. */
export function printRef(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') {
    return `${printRef(ref.ofType as TypeRef)}!`;
  }
  if (ref.kind === 'LIST') {
    return `[${printRef(ref.ofType as TypeRef)}]`;
  }
  return ref.name ?? '';
}

/** Introspects `server`: its types by name and its root types. */
export async function introspect(server: TestServer): Promise<{ types: Map<string, SchemaType>; roots: SchemaRoot[] }> {
  const introspection = await server.graphql<{
    __schema: {
      queryType: { name: string };
      mutationType: { name: string } | null;
      subscriptionType: { name: string } | null;
      types: SchemaType[];
    };
  }>(INTROSPECTION);
  const raw = introspection.data?.__schema;
  assert.ok(raw, JSON.stringify(introspection.errors));
  const roots = [
    { name: 'Query', type: raw.queryType.name },
    ...(raw.mutationType ? [{ name: 'Mutation', type: raw.mutationType.name }] : []),
    ...(raw.subscriptionType ? [{ name: 'Subscription', type: raw.subscriptionType.name }] : []),
  ];
  return { types: new Map(raw.types.map((type) => [type.name, type])), roots };
}
