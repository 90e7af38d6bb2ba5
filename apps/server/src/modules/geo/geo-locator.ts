import { createRequire } from 'node:module';

export interface GeoLocator {
  /** ISO 3166-1 alpha-2 country for a request, or null when unknown (private addresses). */
  countryOf(ip: string, headers: Record<string, string | string[] | undefined>): string | null;
}

type GeoipCountry = { lookup(ip: string): { country?: string } | null };
let geoip: GeoipCountry | undefined;

/**
 * A trusted proxy's country header first (GEO_COUNTRY_HEADER, e.g. CF-IPCountry); else the
 * GeoLite2 country database shipped inside the geoip-country npm package. Never a network call.
 * The database (~8 MB) is loaded on first use, not at start.
 */
export function createGeoLocator(options: { countryHeader?: string }): GeoLocator {
  return {
    countryOf(ip, headers) {
      if (options.countryHeader) {
        const value = headers[options.countryHeader];
        const country = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
        if (country && /^[A-Z]{2}$/.test(country) && country !== 'XX' && country !== 'T1') return country;
      }
      geoip ??= createRequire(import.meta.url)('geoip-country') as GeoipCountry;
      const found = geoip.lookup(ip.replace(/^::ffff:/, ''));
      return found?.country && /^[A-Z]{2}$/.test(found.country) ? found.country : null;
    },
  };
}
