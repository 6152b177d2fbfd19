import type { CountryLookup } from '@svc/domain';
import type { CountryResponse, Reader } from 'maxmind';

/** The credit the GeoLite2 licence (CC BY-SA 4.0) asks for wherever its data is shown. */
const GEOLITE2_ATTRIBUTION =
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com.';

/**
 * Countries from a MaxMind-format database (GeoLite2-Country, GeoIP2-Country, or any database with the same
 * `country.iso_code` record), read with the maintained `maxmind` library: the country of the address, else of
 * the network's registration; empty when the database has no record.
 */
export class MaxMindCountryLookup implements CountryLookup {
  readonly attribution: string;

  constructor(private readonly reader: Reader<CountryResponse>) {
    this.attribution = reader.metadata.databaseType.startsWith('GeoLite2') ? GEOLITE2_ATTRIBUTION : '';
  }

  countryOf(ip: string): string {
    // An IPv4-only database cannot answer IPv6 addresses (the library throws for them).
    if (this.reader.metadata.ipVersion === 4 && ip.includes(':')) return '';
    const record = this.reader.get(ip);
    return record?.country?.iso_code ?? record?.registered_country?.iso_code ?? '';
  }
}

/**
 * Opens the database at `path` (SVC_GEOIP_DB); a missing or unreadable file fails the start. The library is
 * loaded here, so that a server without SVC_GEOIP_DB never holds it.
 */
export async function openMaxMindCountryLookup(path: string): Promise<MaxMindCountryLookup> {
  const { open } = await import('maxmind');
  try {
    return new MaxMindCountryLookup(await open<CountryResponse>(path, { cache: { max: 10_000 } }));
  } catch (cause) {
    throw new Error(`SVC_GEOIP_DB: cannot read a MaxMind database at ${path}`, { cause });
  }
}
