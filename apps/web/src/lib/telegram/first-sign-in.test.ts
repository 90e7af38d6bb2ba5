import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNewMiniAppAccount, telegramUserIdOf } from './first-sign-in';

const initDataOf = (id: number) =>
  new URLSearchParams({ user: JSON.stringify({ id, first_name: 'Aidar' }), hash: 'h' }).toString();

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the Mini App’s first sign-in on a device', () => {
  it('asks the server once per Telegram user and says whether the account is new', async () => {
    const exchange = vi.fn().mockResolvedValue({ created: true });
    expect(await isNewMiniAppAccount(initDataOf(42), exchange)).toBe(true);
    // The next launch of the same person asks nothing: the onboarding came once.
    expect(await isNewMiniAppAccount(initDataOf(42), exchange)).toBe(false);
    expect(exchange).toHaveBeenCalledTimes(1);
    expect(exchange).toHaveBeenCalledWith(initDataOf(42));
    // Another person on this device is asked about.
    exchange.mockResolvedValue({ created: false });
    expect(await isNewMiniAppAccount(initDataOf(43), exchange)).toBe(false);
    expect(exchange).toHaveBeenCalledTimes(2);
  });

  it('asks again next launch when there was no answer, and never without a user', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const exchange = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ created: true });
    expect(await isNewMiniAppAccount(initDataOf(7), exchange)).toBe(false);
    expect(await isNewMiniAppAccount(initDataOf(7), exchange)).toBe(true);
    expect(await isNewMiniAppAccount('auth_date=1&hash=h', exchange)).toBe(false);
    expect(exchange).toHaveBeenCalledTimes(2);
    expect(telegramUserIdOf('user=not-json')).toBeNull();
  });
});
