/**
 * Shared types: the Error interface and its members, DeleteSuccess, PageInfo, ConnectionInput.
 */
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** The base schema module every other module extends. */
export const baseModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "ISO 8601 UTC timestamp."
    scalar Time

    "Arbitrary JSON value."
    scalar JSON

    "An expected failure returned as a union member of a mutation result."
    interface Error {
      message: String!
      code: String!
    }

    "An input field is invalid."
    type ValidationError implements Error {
      message: String!
      code: String!
      "The offending input field, e.g. input.name."
      field: String
      "What rule it broke, e.g. required, length, format."
      constraint: String
    }

    "The caller is not signed in, or its token lacks a scope."
    type AuthError implements Error {
      message: String!
      code: String!
    }

    "The resource does not exist for this tenant."
    type NotFoundError implements Error {
      message: String!
      code: String!
      resourceType: String
      resourceId: String
    }

    "Too many requests."
    type RateLimitError implements Error {
      message: String!
      code: String!
      "Seconds to wait before retrying."
      retryAfter: Int
    }

    "A deletion (or revocation) was accepted."
    type DeleteSuccess {
      success: Boolean!
      deletedId: ID!
      "True when the deletion was accepted and finishes in the background; false when it is already complete."
      pending: Boolean!
    }

    "Relay page info."
    type PageInfo {
      startCursor: String
      endCursor: String
      hasNextPage: Boolean!
      hasPreviousPage: Boolean!
    }

    "Page input: first (default 50, max 500) with after, or last with before."
    input ConnectionInput {
      first: Int
      after: String
      last: Int
      before: String
    }

    type Query {
      "Always true; a cheap liveness probe."
      ping: Boolean!
    }

    type Mutation {
      "Always true."
      noop: Boolean
    }
  `,
  resolvers: {
    Query: { ping: () => true },
    Mutation: { noop: () => true },
  } satisfies Resolvers,
};
