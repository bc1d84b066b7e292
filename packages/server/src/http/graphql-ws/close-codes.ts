/**
 * WebSocket close codes of /graphql/ws: the graphql-transport-ws protocol's own, plus ours for
 * limits (RFC 6455 §7.4.2 reserves 4000–4999 for applications).
 */

/** Missing, invalid, expired or revoked `connectionParams.authToken` (protocol: Unauthorized). */
export const CLOSE_UNAUTHORIZED = 4401;
/** The client reads too slowly: more than the allowed bytes wait in its send buffer. Retry later. */
export const CLOSE_SLOW_CONSUMER = 4008;
/** Too many open connections for one token (RFC 6455: policy violation). */
export const CLOSE_TOO_MANY_CONNECTIONS = 1008;
/** Too many connection attempts from one address; retry after the time in the reason (RFC 6455: try again later). */
export const CLOSE_TRY_AGAIN_LATER = 1013;
/** The server is shutting down. */
export const CLOSE_GOING_AWAY = 1001;
/** Unexpected server failure (protocol: InternalServerError). */
export const CLOSE_INTERNAL_ERROR = 4500;
