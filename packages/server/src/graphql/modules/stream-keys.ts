/**
 * Stream keys: several active keys per stream; create, list, delete. (The primary key is rotated
 * with refreshStreamKey in the streams module.)
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';

/** The stream keys schema module. */
export const streamKeysModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "An ingest key of a stream. Any active key may publish to its stream."
    type StreamKey {
      "Global ID."
      id: ID!
      "UUID of the stream it belongs to."
      streamId: ID!
      "Secret key value (shown to the owner only)."
      keyValue: String!
      keyName: String!
      "False once rotated out by refreshStreamKey."
      isActive: Boolean!
      "The key shown as Stream.streamKey."
      isPrimary: Boolean!
      lastUsedAt: Time
      createdAt: Time!
    }

    type StreamKeyEdge {
      cursor: String!
      node: StreamKey!
    }

    type StreamKeysConnection {
      edges: [StreamKeyEdge!]!
      nodes: [StreamKey!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input CreateStreamKeyInput {
      "1 to 100 characters after trimming."
      name: String!
    }

    union CreateStreamKeyResult = StreamKey | ValidationError | NotFoundError | AuthError
    union DeleteStreamKeyResult = DeleteSuccess | ValidationError | NotFoundError | AuthError

    extend type Query {
      "Keys of one of the caller's streams, newest first."
      streamKeysConnection(streamId: ID!, page: ConnectionInput): StreamKeysConnection!
    }

    extend type Mutation {
      "Adds an active key (at most 20 per stream)."
      createStreamKey(streamId: ID!, input: CreateStreamKeyInput!): CreateStreamKeyResult!
      "Deletes a non-primary key; it stops working at once."
      deleteStreamKey(streamId: ID!, keyId: ID!): DeleteStreamKeyResult!
    }
  `,
  resolvers: {
    Query: {
      streamKeysConnection: (_root, { streamId, page }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        return ctx.services.streamKeys.list(principal.tenantId, streamId, page);
      },
    },
    Mutation: {
      createStreamKey: (_root, { streamId, input }, ctx) =>
        unionResult('StreamKey', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.streamKeys.create(principal.tenantId, streamId, input);
        }),
      deleteStreamKey: (_root, { streamId, keyId }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const deleted = await ctx.services.streamKeys.delete(principal.tenantId, streamId, keyId);
          return { success: true, deletedId: toGlobalId('StreamKey', deleted), pending: false };
        }),
    },
    StreamKey: {
      id: (key) => toGlobalId('StreamKey', key.id),
      lastUsedAt: (key) => key.lastUsedAt?.toISOString() ?? null,
      createdAt: (key) => key.createdAt.toISOString(),
    },
  } satisfies Resolvers,
};
