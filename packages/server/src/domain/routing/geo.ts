/**
 * Positions on Earth and the great-circle distance between them (haversine on a sphere of the
 * mean Earth radius, IUGG: 6371.0088 km; error under 0.5 % against the ellipsoid).
 */

/** A position in degrees. */
export interface GeoPoint {
  readonly latitude: number;
  readonly longitude: number;
}

/** Mean Earth radius, km. */
export const EARTH_RADIUS_KM = 6371.0088;
/** Longest great-circle distance (half the circumference), km. */
export const MAX_DISTANCE_KM = Math.PI * EARTH_RADIUS_KM;

/** Great-circle distance between two points, km. */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Finds where an IP address is. */
export interface GeoLocator {
  /** The position of `ip`, or undefined when the database does not place it (private ranges, unknown blocks). */
  locate(ip: string): GeoPoint | undefined;
}
