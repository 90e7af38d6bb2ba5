import { describe, expect, it } from 'vitest';
import { generateReferralCode, normaliseReferralCode, splitUserRefs } from './users.models.js';

describe('referral codes', () => {
  it('are 8 characters from an alphabet without look-alikes', () => {
    const codes = new Set(Array.from({ length: 200 }, () => generateReferralCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[a-hj-km-np-z2-9]{8}$/);
  });

  it('are read from links and ref_ start parameters, anything odd ignored', () => {
    expect(normaliseReferralCode(' AbCd2345 ')).toBe('abcd2345');
    expect(normaliseReferralCode('ref_abcd2345')).toBe('abcd2345');
    expect(normaliseReferralCode('x')).toBeNull();
    expect(normaliseReferralCode("abc'; drop table")).toBeNull();
    expect(normaliseReferralCode(undefined)).toBeNull();
  });
});

describe('user references', () => {
  it('split into ids and lower-cased uuids without duplicates', () => {
    expect(splitUserRefs([3, 'ABC', 3, 'abc'])).toEqual({ ids: [3], uuids: ['abc'] });
  });
});
