/**
 * Playback access control: ES256 signing keys (private PEM returned once), the playback policy
 * of a stream (PUBLIC, JWT, WEBHOOK; webhook secrets write-only) and testPlaybackAccess.
 * Developer tokens need security:read / security:write.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { fromGlobalId, toGlobalId } from '../../domain/ids.js';
import type { AccessDecision } from '../../domain/playback-access/playback-access.service.js';
import type { PlaybackAccessDecision, Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import { setPolicyOfTarget } from './playback-policy-targets.js';

/** The decision without the verified token (which only the media routes carry on). */
function decisionToGraphQL(decision: AccessDecision): PlaybackAccessDecision {
  return {
    allowed: decision.allowed,
    policyType: decision.policyType,
    reason: decision.reason,
    detail: decision.detail,
    kid: decision.kid,
    webhookStatus: decision.webhookStatus,
    webhookLatencyMs: decision.webhookLatencyMs,
    claimsJson: decision.claims ? JSON.stringify(decision.claims) : null,
  };
}

/** The playback access schema module. */
export const playbackAccessModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    enum SigningKeyStatus {
      ACTIVE
      REVOKED
    }

    "An ES256 (ECDSA P-256) key that signs playback tokens. Only its public half is stored."
    type SigningKey {
      id: ID!
      "Goes in the JWT header of every token this key signs."
      kid: String!
      name: String!
      "Always ES256."
      algorithm: String!
      "SPKI PEM of the public key."
      publicKeyPem: String!
      status: SigningKeyStatus!
      createdAt: Time!
      revokedAt: Time
      "Last time a token signed by this key was accepted (minute resolution)."
      lastUsedAt: Time
    }

    type SigningKeyEdge {
      cursor: String!
      node: SigningKey!
    }

    type SigningKeysConnection {
      edges: [SigningKeyEdge!]!
      nodes: [SigningKey!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    "A new signing key and its private key: returned this once, never stored."
    type CreateSigningKeySuccess {
      signingKey: SigningKey!
      "PKCS#8 PEM of the private key. Keep it: it cannot be retrieved again."
      privateKeyPem: String!
    }

    input CreateSigningKeyInput {
      "1 to 100 characters."
      name: String!
    }

    union CreateSigningKeyResult = CreateSigningKeySuccess | ValidationError | AuthError | RateLimitError
    union RevokeSigningKeyResult = DeleteSuccess | NotFoundError | ValidationError | AuthError

    "PUBLIC: no token needed (the default). JWT: an ES256 token signed by one of your keys. WEBHOOK: your endpoint decides."
    enum PlaybackPolicyType {
      PUBLIC
      JWT
      WEBHOOK
    }

    type JwtPlaybackPolicy {
      "Kids accepted; empty accepts any active signing key of the account."
      allowedKids: [String!]!
    }

    type WebhookPlaybackPolicy {
      url: String!
      timeoutMs: Int!
      "The secret is write-only; this reads 'redacted'."
      secretMasked: String!
    }

    "Who may play a stream."
    type PlaybackPolicy {
      type: PlaybackPolicyType!
      jwt: JwtPlaybackPolicy
      webhook: WebhookPlaybackPolicy
    }

    extend type Stream {
      "Who may play this stream (PUBLIC unless setPlaybackPolicy changed it)."
      playbackPolicy: PlaybackPolicy!
    }

    input JwtPlaybackPolicyInput {
      "Kids of active signing keys of this account; empty or omitted accepts any active key."
      allowedKids: [String!]
    }

    input WebhookPlaybackPolicyInput {
      "http(s) URL; private, loopback, link-local and multicast addresses need AIRWAVE_ALLOW_PRIVATE_WEBHOOKS=true."
      url: String!
      "HMAC-SHA256 key, 16 to 512 characters. Write-only; omit it on an update to keep the current one."
      secret: String
      "1 to 10000 ms; default 5000."
      timeoutMs: Int
    }

    input PlaybackPolicyInput {
      type: PlaybackPolicyType!
      jwt: JwtPlaybackPolicyInput
      webhook: WebhookPlaybackPolicyInput
    }

    "Exactly one of streamId and clipId."
    input SetPlaybackPolicyInput {
      "Stream global ID (or UUID): its live output, recordings, chapters and clips."
      streamId: ID
      "Clip global ID, UUID or clip hash: that clip only (instead of its stream's policy)."
      clipId: ID
      policy: PlaybackPolicyInput!
    }

    union SetPlaybackPolicyResult = Stream | Clip | ValidationError | NotFoundError | AuthError

    input TestPlaybackAccessInput {
      playbackId: String!
      "The viewer token (JWT policy)."
      token: String
      viewerIp: String
      requestUrl: String
      "false: do not call the webhook (reason webhook-test-skipped). Default true."
      fireWebhook: Boolean
      "The output the request would come through (hls, llhls, dash, mp4, webrtc; default test), as the webhook sees it; at most 32 characters."
      connector: String
      "The viewer session id the webhook sees (default a new test-… id); at most 128 characters."
      sessionId: String
    }

    "What the playback gate decides for a request."
    type PlaybackAccessDecision {
      allowed: Boolean!
      policyType: PlaybackPolicyType!
      "public, jwt-valid, webhook-allow, or a deny reason such as missing-token, jwt-expired, webhook-deny-403, webhook-timeout."
      reason: String!
      detail: String!
      "The kid the token named."
      kid: String
      webhookStatus: Int
      webhookLatencyMs: Int
      "The verified token's claims as a JSON object (JWT policy, when allowed)."
      claimsJson: String
    }

    union TestPlaybackAccessResult = PlaybackAccessDecision | ValidationError | NotFoundError | AuthError

    extend type Query {
      "A signing key of the account (developer tokens need security:read)."
      signingKey(id: ID!): SigningKey
      "The account's signing keys, oldest first (developer tokens need security:read)."
      signingKeysConnection(page: ConnectionInput, status: SigningKeyStatus): SigningKeysConnection!
    }

    extend type Mutation {
      "Generates an ES256 key pair; the private key is returned this once (security:write)."
      createSigningKey(input: CreateSigningKeyInput!): CreateSigningKeyResult!
      "Revokes a signing key; its tokens stop playing at once (security:write)."
      revokeSigningKey(id: ID!): RevokeSigningKeyResult!
      "Sets who may play a stream (and what was recorded of it) or one clip; takes effect at once (security:write)."
      setPlaybackPolicy(input: SetPlaybackPolicyInput!): SetPlaybackPolicyResult!
      "What the playback gate would decide for a playback ID and token, without serving media (security:read)."
      testPlaybackAccess(input: TestPlaybackAccessInput!): TestPlaybackAccessResult!
    }
  `,
  resolvers: {
    Query: {
      signingKey: (_root, { id }, ctx) => ctx.services.signingKeys.get(ctx.principal, fromGlobalId('SigningKey', id)),
      signingKeysConnection: (_root, { page, status }, ctx) =>
        ctx.services.signingKeys.list(ctx.principal, page, status ?? undefined),
    },
    Mutation: {
      createSigningKey: (_root, { input }, ctx) =>
        unionResult('CreateSigningKeySuccess', ['ValidationError', 'AuthError', 'RateLimitError'], () =>
          ctx.services.signingKeys.create(ctx.principal, input),
        ),
      revokeSigningKey: (_root, { id }, ctx) =>
        unionResult('DeleteSuccess', ['NotFoundError', 'ValidationError', 'AuthError'], async () => {
          const revoked = await ctx.services.signingKeys.revoke(ctx.principal, fromGlobalId('SigningKey', id));
          return { success: true, deletedId: toGlobalId('SigningKey', revoked.id), pending: false };
        }),
      setPlaybackPolicy: (_root, { input }, ctx) => setPolicyOfTarget(input, ctx),
      testPlaybackAccess: (_root, { input }, ctx) =>
        unionResult('PlaybackAccessDecision', ['ValidationError', 'NotFoundError', 'AuthError'], async () =>
          decisionToGraphQL(await ctx.services.playbackAccess.test(ctx.principal, input)),
        ),
    },
    SigningKey: {
      id: (key) => toGlobalId('SigningKey', key.id),
      createdAt: (key) => key.createdAt.toISOString(),
      revokedAt: (key) => key.revokedAt?.toISOString() ?? null,
      lastUsedAt: (key) => key.lastUsedAt?.toISOString() ?? null,
    },
    Stream: {
      playbackPolicy: (stream, _args, ctx) => {
        const principal = requirePrincipal(ctx.principal);
        return ctx.services.playbackPolicies.viewForStream(principal.tenantId, stream.id);
      },
    },
  } satisfies Resolvers,
};
