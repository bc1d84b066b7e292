/**
 * The domain services resolvers may call. `main/` builds them; resolvers never touch SQL.
 * Each engineer adding a domain adds its service here.
 */
import type { NodeInfo } from '../domain/node-info.js';

/** Every domain service available to resolvers. */
export interface Services {
  readonly node: NodeInfo;
}
