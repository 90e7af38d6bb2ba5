import { describe, expect, it, vi } from 'vitest';
import {
  cleanStoredValue,
  formatCookie,
  parentDomain,
  pickUtmParams,
  readCookie,
  readStored,
  saveCampaignParams,
  saveReferralParam,
  setCookie,
  timezoneOffsetMinutes,
  writeStored,
} from './storage';

describe('stored values', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['', null],
    ['null', null],
    ['undefined', null],
    [' null ', null],
    ['abc', 'abc'],
  ])('%j reads as %j', (raw, value) => {
    expect(cleanStoredValue(raw)).toBe(value);
  });

  it('uses the app’s storage keys and never stores "null"', () => {
    writeStored('refresh', 'r1');
    expect(localStorage.getItem('refresh')).toBe('r1');
    writeStored('refresh', 'null');
    expect(localStorage.getItem('refresh')).toBeNull();
    localStorage.setItem('django_language', 'undefined');
    expect(readStored('django_language')).toBeNull();
    localStorage.setItem('tgData', 'user=1');
    expect(readStored('tgData')).toBe('user=1');
  });
});

describe('cookies', () => {
  it.each([
    ['app.mirra.ai', '.mirra.ai'],
    ['a.b.mirra.co.uk', '.b.mirra.co.uk'],
    ['mirra.ai', null],
    ['localhost', null],
    ['127.0.0.1', null],
  ])('the parent domain of %s is %s', (host, domain) => {
    expect(parentDomain(host)).toBe(domain);
  });

  it('keeps the theme for 365 days and campaigns for 30 days on the parent domain', () => {
    expect(formatCookie('theme', 'light', { days: 365 })).toBe(
      'theme=light; path=/; SameSite=Lax; max-age=31536000',
    );
    expect(formatCookie('utm_source', 'tg', { days: 30, domain: '.mirra.ai' })).toBe(
      'utm_source=tg; path=/; SameSite=Lax; max-age=2592000; domain=.mirra.ai',
    );
  });

  it('marks cookies Secure when asked, and setCookie asks when the page came over https', () => {
    expect(formatCookie('theme', 'dark', { days: 365, secure: true })).toBe(
      'theme=dark; path=/; SameSite=Lax; max-age=31536000; Secure',
    );
    const written: string[] = [];
    const cookie = vi.spyOn(document, 'cookie', 'set').mockImplementation((value) => written.push(value));
    const protocol = vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      protocol: 'https:',
    });
    try {
      setCookie('timezone', '-180', { days: 365 });
      protocol.mockReturnValue({ ...window.location, protocol: 'http:' });
      setCookie('theme', 'dark');
    } finally {
      cookie.mockRestore();
      protocol.mockRestore();
    }
    expect(written).toEqual([
      'timezone=-180; path=/; SameSite=Lax; max-age=31536000; Secure',
      'theme=dark; path=/; SameSite=Lax',
    ]);
  });

  it('sends the timezone as getTimezoneOffset, the sign the server reads (Moscow = -180)', () => {
    expect(timezoneOffsetMinutes({ getTimezoneOffset: () => -180 })).toBe(-180);
    expect(timezoneOffsetMinutes({ getTimezoneOffset: () => 300 })).toBe(300);
  });

  it('saves every utm_* parameter of the landing address', () => {
    expect(pickUtmParams('?utm_source=tg&x=1&utm_campaign=spring&utm_id=42')).toEqual([
      ['utm_source', 'tg'],
      ['utm_campaign', 'spring'],
      ['utm_id', '42'],
    ]);
    saveCampaignParams({ search: '?utm_medium=cpc&utm_content=a%20b', hostname: 'localhost' });
    expect(readCookie('utm_medium')).toBe('cpc');
    expect(readCookie('utm_content')).toBe('a b');
  });

  it('keeps the partner code of a reflink in the ref cookie, ignoring junk', () => {
    saveReferralParam({ search: '?ref=AbCd2345', hostname: 'localhost' });
    expect(readCookie('ref')).toBe('abcd2345');
    saveReferralParam({ search: '?ref=%3Cscript%3E', hostname: 'localhost' });
    expect(readCookie('ref')).toBe('abcd2345');
    saveReferralParam({ search: '?ref=zz99yy88', hostname: 'localhost' });
    expect(readCookie('ref')).toBe('zz99yy88');
  });

  it('reads "null" cookies as missing', () => {
    expect(readCookie('theme', 'a=1; theme=null')).toBeNull();
    expect(readCookie('theme', 'a=1; theme=dark')).toBe('dark');
  });
});
