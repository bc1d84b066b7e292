/** GraphQL over HTTP against one Airwave process's base URL, for tests that run several as child processes. */

import type { TestServer } from '@airwave/server/testing/test-server';

/** GraphQL against a node, as TestServer.graphql does. */
export function graphqlOf(baseUrl: string): Pick<TestServer, 'graphql'> {
  return {
    async graphql<T>(query: string, variables?: Record<string, unknown>, token?: string) {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as {
        data: T | null;
        errors?: { message: string; extensions?: Record<string, unknown> }[];
      };
      return {
        status: response.status,
        data: body.data,
        ...(body.errors ? { errors: body.errors } : {}),
        headers: response.headers,
      };
    },
  };
}
