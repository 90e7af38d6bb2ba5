/**
 * Pay-out requisites, checked before any money is set aside: a bank card (Luhn), a phone for the
 * Russian fast payment system (SBP), or a crypto address in its network's format, each with the
 * holder's name. Messages are the English originals the web app translates by field and code.
 */

import { CRYPTO_NETWORKS, type CryptoNetwork, type PayoutRequisites } from '../../shared/db/json-columns.js';

export { CRYPTO_NETWORKS, type CryptoNetwork, type PayoutRequisites };

/** The Luhn checksum every bank card number satisfies. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const normaliseCard = (raw: string) => raw.replace(/[\s-]/g, '');

/** A Russian mobile number in the form SBP uses: +7 and ten digits (8… and 7… are accepted). */
export function normaliseSbpPhone(raw: string): string | null {
  const digits = raw.replace(/[\s()+-]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const national =
    digits.length === 11 && /^[78]/.test(digits) ? digits.slice(1) : digits.length === 10 ? digits : null;
  return national && /^9\d{9}$/.test(national) ? `+7${national}` : null;
}

const ADDRESS_FORMATS: Record<CryptoNetwork, RegExp> = {
  // Tron: base58check, 34 characters starting with T.
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  // Ethereum and BNB Smart Chain: 0x and 40 hex digits.
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
  // TON: user-friendly base64url (48 characters, EQ/UQ/kQ/0Q…) or raw workchain:hex.
  TON: /^(?:[EUk0]Q[A-Za-z0-9_-]{46}|-?\d:[0-9a-fA-F]{64})$/,
  // Bitcoin: legacy/P2SH base58 (1…, 3…) or bech32 (bc1…).
  BTC: /^(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{11,71})$/,
};

export function isCryptoAddressValid(network: CryptoNetwork, address: string): boolean {
  return ADDRESS_FORMATS[network].test(address);
}

/** Field errors of requisites as submitted (empty when they are usable), and the cleaned value. */
export function checkRequisites(input: {
  method: 'card' | 'sbp' | 'crypto';
  card?: string | null;
  phone?: string | null;
  bank?: string | null;
  network?: string | null;
  address?: string | null;
  holder?: string | null;
}): { errors: Record<string, string[]>; requisites: PayoutRequisites | null } {
  const errors: Record<string, string[]> = {};
  const holder = (input.holder ?? '').trim().replace(/\s+/g, ' ');
  if (holder.length < 2 || holder.length > 100 || /\d/.test(holder)) {
    errors.holder = ["Enter the holder's full name."];
  }
  let requisites: PayoutRequisites | null = null;
  if (input.method === 'card') {
    const card = normaliseCard(input.card ?? '');
    if (!/^\d{13,19}$/.test(card) || !isLuhnValid(card)) errors.card = ['Enter a valid card number.'];
    else requisites = { method: 'card', card, holder };
  } else if (input.method === 'sbp') {
    const phone = normaliseSbpPhone(input.phone ?? '');
    const bank = (input.bank ?? '').trim();
    if (!phone) errors.phone = ['Enter a Russian mobile number, e.g. +7 912 345-67-89.'];
    if (bank.length < 2 || bank.length > 60) errors.bank = ['Enter the bank that receives the transfer.'];
    if (phone && !errors.bank) requisites = { method: 'sbp', phone, bank, holder };
  } else {
    const network = (CRYPTO_NETWORKS as readonly string[]).includes(input.network ?? '')
      ? (input.network as CryptoNetwork)
      : null;
    const address = (input.address ?? '').trim();
    if (!network) errors.network = ['Choose a network.'];
    else if (!isCryptoAddressValid(network, address)) {
      errors.address = [`This is not a ${network} address.`];
    } else requisites = { method: 'crypto', network, address, holder };
  }
  return Object.keys(errors).length ? { errors, requisites: null } : { errors, requisites };
}

/** The requisites as shown back (a list, a notification): a card's last four digits only. */
export function maskRequisites(requisites: PayoutRequisites): string {
  switch (requisites.method) {
    case 'card':
      return `•••• ${requisites.card.slice(-4)}`;
    case 'sbp':
      return `${requisites.phone.slice(0, 2)} ••• •••-${requisites.phone.slice(-4, -2)}-${requisites.phone.slice(-2)} (${requisites.bank})`;
    case 'crypto':
      return `${requisites.network} ${requisites.address.slice(0, 6)}…${requisites.address.slice(-4)}`;
  }
}

/** Credits bought with `credits` at `creditsPerUnit` credits per major unit, in minor units, rounded up. */
export function creditsCost(credits: number, creditsPerUnit: number): number {
  return Math.ceil((credits * 100) / creditsPerUnit);
}
