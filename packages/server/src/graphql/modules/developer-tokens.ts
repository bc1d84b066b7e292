/**
 * Developer tokens: create (value shown once), list as a connection, revoke.
 */

import { fromGlobalId, toGlobalId } from '../../domain/ids.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';

/** The developer tokens schema module. */
export const developerTokensModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "A developer API token. Its value appears only in the createDeveloperToken result."
    type DeveloperToken {
      id: ID!
      tokenName: String!
      "The secret value: only in the createDeveloperToken result, null everywhere else."
      tokenValue: String
      "Comma-separated scopes, e.g. streams:read,streams:write."
      permissions: String!
      "The same scopes as a list."
      scopes: [String!]!
      "active, revoked or expired."
      status: String!
      lastUsedAt: Time
      "Null: never expires."
      expiresAt: Time
      createdAt: Time!
    }

    type DeveloperTokenEdge {
      cursor: String!
      node: DeveloperToken!
    }

    type DeveloperTokenConnection {
      edges: [DeveloperTokenEdge!]!
      nodes: [DeveloperToken!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input CreateDeveloperTokenInput {
      name: String!
      "Comma-separated scopes: streams:read, streams:write, analytics:read, developer:read, developer:write, account:read, account:write, security:read, security:write."
      permissions: String!
      "Lifetime in days (1 to 3650); null never expires."
      expiresIn: Int
    }

    union CreateDeveloperTokenResult = DeveloperToken | ValidationError | AuthError | RateLimitError
    union RevokeDeveloperTokenResult = DeleteSuccess | NotFoundError | ValidationError | AuthError

    extend type Query {
      "The tenant's developer tokens, oldest first (developer tokens need developer:read)."
      developerTokensConnection(page: ConnectionInput): DeveloperTokenConnection!
    }

    extend type Mutation {
      "Creates a developer token; its value is returned this once (developer tokens need developer:write)."
      createDeveloperToken(input: CreateDeveloperTokenInput!): CreateDeveloperTokenResult!
      "Revokes a developer token at once (developer tokens need developer:write)."
      revokeDeveloperToken(id: ID!): RevokeDeveloperTokenResult!
    }
  `,
  resolvers: {
    Query: {
      developerTokensConnection: (_root, args, context) =>
        context.services.developerTokens.list(context.principal, args.page),
    },
    Mutation: {
      createDeveloperToken: (_root, args, context) =>
        unionResult('DeveloperToken', ['ValidationError', 'AuthError', 'RateLimitError'], () =>
          context.services.developerTokens.create(context.principal, args.input),
        ),
      revokeDeveloperToken: (_root, args, context) =>
        unionResult('DeleteSuccess', ['NotFoundError', 'ValidationError', 'AuthError'], async () => {
          const raw = fromGlobalId('DeveloperToken', args.id);
          const { id } = await context.services.developerTokens.revoke(context.principal, raw);
          return { success: true, deletedId: toGlobalId('DeveloperToken', id), pending: false };
        }),
    },
    DeveloperToken: {
      id: (token) => toGlobalId('DeveloperToken', token.id),
      tokenName: (token) => token.name,
      tokenValue: (token) => ('value' in token && typeof token.value === 'string' ? token.value : null),
      permissions: (token) => token.scopes.join(','),
      lastUsedAt: (token) => token.lastUsedAt?.toISOString() ?? null,
      expiresAt: (token) => token.expiresAt?.toISOString() ?? null,
      createdAt: (token) => token.createdAt.toISOString(),
    },
  } satisfies Resolvers,
};
