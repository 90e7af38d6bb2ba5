import { describe, expect, it } from 'vitest';
import {
  checkRequisites,
  creditsCost,
  isCryptoAddressValid,
  isLuhnValid,
  maskRequisites,
  normaliseSbpPhone,
} from './payouts.models.js';

describe('pay-out requisites', () => {
  it('checks card numbers with Luhn', () => {
    for (const good of ['4111111111111111', '5555555555554444', '2200000000000004', '4242424242424242']) {
      expect(isLuhnValid(good), good).toBe(true);
    }
    for (const bad of ['4111111111111112', '1234567812345678', '', '4111-1111']) {
      expect(isLuhnValid(bad), bad).toBe(false);
    }
    expect(
      checkRequisites({ method: 'card', card: '4111 1111-1111 1111', holder: ' Ivan  Petrov ' }),
    ).toEqual({
      errors: {},
      requisites: { method: 'card', card: '4111111111111111', holder: 'Ivan Petrov' },
    });
    expect(checkRequisites({ method: 'card', card: '4111 1111 1111 1112', holder: 'I' }).errors).toEqual({
      card: ['Enter a valid card number.'],
      holder: ["Enter the holder's full name."],
    });
  });

  it('accepts Russian mobile numbers for SBP in the usual spellings', () => {
    expect(normaliseSbpPhone('+7 (912) 345-67-89')).toBe('+79123456789');
    expect(normaliseSbpPhone('89123456789')).toBe('+79123456789');
    expect(normaliseSbpPhone('9123456789')).toBe('+79123456789');
    expect(normaliseSbpPhone('+7 495 123-45-67')).toBeNull(); // a landline
    expect(normaliseSbpPhone('+49 151 2345678')).toBeNull();
    expect(
      checkRequisites({ method: 'sbp', phone: '8 912 345 67 89', bank: '', holder: 'Anna K' }).errors,
    ).toEqual({
      bank: ['Enter the bank that receives the transfer.'],
    });
  });

  it('checks crypto addresses by network', () => {
    const valid: Array<[Parameters<typeof isCryptoAddressValid>[0], string]> = [
      ['TRC20', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
      ['ERC20', '0x52908400098527886E0F7030069857D2E4169EE7'],
      ['BEP20', '0xde709f2102306220921060314715629080e2fb77'],
      ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
      ['BTC', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
      ['TON', 'EQD__________________________________________0vo'],
    ];
    for (const [network, address] of valid)
      expect(isCryptoAddressValid(network, address), address).toBe(true);
    expect(isCryptoAddressValid('TRC20', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
    expect(isCryptoAddressValid('ERC20', '0x5290840009852788')).toBe(false);
    expect(isCryptoAddressValid('BTC', 'bc1qAR0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(false);
    expect(
      checkRequisites({ method: 'crypto', network: 'SOL', address: 'x', holder: 'Anna K' }).errors,
    ).toEqual({
      network: ['Choose a network.'],
    });
    expect(
      checkRequisites({ method: 'crypto', network: 'TRC20', address: 'T123', holder: 'Anna K' }).errors,
    ).toEqual({
      address: ['This is not a TRC20 address.'],
    });
  });

  it('shows requisites back masked', () => {
    expect(maskRequisites({ method: 'card', card: '4111111111111111', holder: 'A B' })).toBe('•••• 1111');
    expect(maskRequisites({ method: 'sbp', phone: '+79123456789', bank: 'Т-Банк', holder: 'A B' })).toBe(
      '+7 ••• •••-67-89 (Т-Банк)',
    );
    expect(
      maskRequisites({
        method: 'crypto',
        network: 'TRC20',
        address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
        holder: 'A B',
      }),
    ).toBe('TRC20 TLa2f6…YjU7');
  });

  it('prices credits bought with wallet money, rounding the cost up', () => {
    expect(creditsCost(25, 1)).toBe(2500);
    expect(creditsCost(1, 90)).toBe(2);
    expect(creditsCost(90, 90)).toBe(100);
  });
});
