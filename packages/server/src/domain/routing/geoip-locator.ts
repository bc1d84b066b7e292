/**
 * IP geolocation from geoip-lite 1.4 (its package ships MaxMind GeoLite2 city data, CC BY-SA 4.0:
 * nothing is downloaded at run time). The database takes ~150 MiB of memory, so it is loaded on
 * the first lookup, and only a deployment with node positions ever looks anything up.
 */
import { createRequire } from 'node:module';
import type { GeoLocator, GeoPoint } from './geo.js';

interface GeoipLite {
  lookup(ip: string): { ll?: [number | null, number | null] } | null;
}

const require = createRequire(import.meta.url);

/** geoip-lite behind the GeoLocator port, loaded on first use. */
export class GeoipLiteLocator implements GeoLocator {
  private geoip: GeoipLite | undefined;

  /** The city-level position of `ip`, when the database has one. */
  locate(ip: string): GeoPoint | undefined {
    this.geoip ??= require('geoip-lite') as GeoipLite;
    const [latitude, longitude] = this.geoip.lookup(ip)?.ll ?? [];
    if (typeof latitude !== 'number' || typeof longitude !== 'number') {
      return undefined;
    }
    return { latitude, longitude };
  }
}
