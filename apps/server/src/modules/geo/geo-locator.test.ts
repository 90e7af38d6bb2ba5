import { describe, expect, it } from 'vitest';
import { createGeoLocator } from './geo-locator.js';

describe('createGeoLocator', () => {
  const byIp = createGeoLocator({});
  const byHeader = createGeoLocator({ countryHeader: 'cf-ipcountry' });

  it('finds the country of an address in the GeoLite2 data shipped with geoip-country', () => {
    expect(byIp.countryOf('77.88.8.8', {})).toBe('RU');
    expect(byIp.countryOf('8.8.8.8', {})).toBe('US');
    // IPv4 mapped into IPv6, as Node reports it on a dual-stack socket.
    expect(byIp.countryOf('::ffff:8.8.8.8', {})).toBe('US');
    expect(byIp.countryOf('2a02:6b8::feed:ff', {})).toBe('RU');
  });

  it('answers null for addresses no country owns', () => {
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', '::ffff:127.0.0.1']) {
      expect(byIp.countryOf(ip, {}), ip).toBeNull();
    }
  });

  it('prefers the configured proxy header, upper-cased', () => {
    expect(byHeader.countryOf('8.8.8.8', { 'cf-ipcountry': 'ru' })).toBe('RU');
    expect(byHeader.countryOf('8.8.8.8', { 'cf-ipcountry': [' de ', 'fr'] })).toBe('DE');
  });

  it('falls back to the address when the header is absent, unknown (XX), Tor (T1) or not a country', () => {
    for (const value of [undefined, '', 'XX', 'T1', 'Russia', 'r1']) {
      expect(byHeader.countryOf('8.8.8.8', { 'cf-ipcountry': value }), String(value)).toBe('US');
    }
  });

  it('ignores country headers when none is configured: a client could send any', () => {
    expect(byIp.countryOf('127.0.0.1', { 'cf-ipcountry': 'RU' })).toBeNull();
  });
});
