/**
 * Accounts: register, login, logout and me. Register and login answer a token and also set
 * the httpOnly session cookie; logout revokes the session and clears the cookie.
 */
import type { AuthPayload } from '../../domain/accounts/accounts.service.js';
import { toGlobalId } from '../../domain/ids.js';
import type { GraphQLContext } from '../context.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';

/** Sets the session cookie of a new session and answers the payload. */
function signedIn(payload: AuthPayload, context: GraphQLContext): AuthPayload {
  context.services.sessionCookie.set(context.reply, payload.token, payload.expiresAt);
  return payload;
}

/** The accounts schema module. */
export const accountsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "A person who signs in. Each user belongs to exactly one tenant."
    type User {
      id: ID!
      email: String!
      name: String
      createdAt: Time!
    }

    "A new sign-in session. Send token as Authorization: Bearer <token>; browsers also get an httpOnly cookie."
    type AuthPayload {
      token: String!
      expiresAt: Time!
      user: User!
    }

    "The session ended."
    type LogoutPayload {
      success: Boolean!
    }

    input RegisterInput {
      email: String!
      "8 to 1024 characters."
      password: String!
      name: String
    }

    input LoginInput {
      email: String!
      password: String!
    }

    union RegisterResult = AuthPayload | ValidationError
    union LoginResult = AuthPayload | ValidationError | AuthError | RateLimitError
    union LogoutResult = LogoutPayload | AuthError

    extend type Query {
      "The signed-in user (developer tokens need account:read)."
      me: User!
    }

    extend type Mutation {
      "Creates an account (a new tenant and its first user) and signs it in."
      register(input: RegisterInput!): RegisterResult!
      "Signs in with email and password. Repeated failures are rate limited per email and per IP."
      login(input: LoginInput!): LoginResult!
      "Ends the current session (token and cookie)."
      logout: LogoutResult!
    }
  `,
  resolvers: {
    Query: {
      me: (_root, _args, context) => context.services.accounts.me(context.principal),
    },
    Mutation: {
      register: (_root, { input }, context) =>
        unionResult('AuthPayload', ['ValidationError'], async () =>
          signedIn(await context.services.accounts.register(input), context),
        ),
      login: (_root, { input }, context) =>
        unionResult('AuthPayload', ['ValidationError', 'AuthError', 'RateLimitError'], async () =>
          signedIn(await context.services.accounts.login(input, context.ip), context),
        ),
      logout: (_root, _args, context) =>
        unionResult('LogoutPayload', ['AuthError'], async () => {
          context.services.sessionCookie.clear(context.reply);
          await context.services.accounts.logout(context.principal);
          return { success: true };
        }),
    },
    AuthPayload: {
      expiresAt: (payload) => payload.expiresAt.toISOString(),
    },
    User: {
      id: (user) => toGlobalId('User', user.id),
      createdAt: (user) => user.createdAt.toISOString(),
    },
  } satisfies Resolvers,
};
