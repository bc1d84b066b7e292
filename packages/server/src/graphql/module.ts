/**
 * A GraphQL schema module: SDL plus its resolvers. `schema.ts` merges every module.
 */
import type { IResolvers } from 'mercurius';

/** One slice of the schema. */
export interface GraphQLModule {
  readonly typeDefs: string;
  readonly resolvers: IResolvers;
}
