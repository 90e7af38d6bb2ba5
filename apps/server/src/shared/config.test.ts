import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('configuration', () => {
  it('behind a transaction pooler, needs a direct address for LISTEN; without one, LISTEN uses DATABASE_URL', () => {
    expect(() =>
      parseConfig({ DATABASE_URL: 'postgres://pooler:6432/mirra', DATABASE_POOLER: 'transaction' }),
    ).toThrow(/DATABASE_LISTEN_URL: required with DATABASE_POOLER=transaction/);
    const pooled = parseConfig({
      DATABASE_URL: 'postgres://pooler:6432/mirra',
      DATABASE_POOLER: 'transaction',
      DATABASE_LISTEN_URL: 'postgres://db:5432/mirra',
    });
    expect(pooled.databasePooler).toBe('transaction');
    expect(pooled.databaseListenUrl).toBe('postgres://db:5432/mirra');
    const plain = parseConfig({ DATABASE_URL: 'postgres://db:5432/mirra' });
    expect(plain.databasePooler).toBe('none');
    expect(plain.databaseListenUrl).toBeUndefined();
  });

  it('offers the test payment provider by default, but not in production unless asked', () => {
    expect(parseConfig({}).payments.testProvider).toBe(true);
    expect(parseConfig({ NODE_ENV: 'production' }).payments.testProvider).toBe(false);
    expect(
      parseConfig({ NODE_ENV: 'production', PAYMENTS_TEST_PROVIDER: 'true' }).payments.testProvider,
    ).toBe(true);
    expect(parseConfig({ PAYMENTS_TEST_PROVIDER: 'false' }).payments.testProvider).toBe(false);
  });

  it('runs with nothing set: port 3000, data in ./data, embedded PostgreSQL, outbox email', () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.outboxDir).toBe(path.resolve('./data/outbox'));
    expect(config.tokens.accessSeconds).toBe(300);
    expect(config.telegram.initDataMaxAgeSeconds).toBe(3600);
    expect(config.telegram.apiBase).toBe('https://api.telegram.org');
  });

  it('reads every setting and normalises URLs and names', () => {
    const config = parseConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://mirra.example/',
      DATABASE_URL: 'postgres://u:p@db/mirra',
      TELEGRAM_BOT_USERNAME: '@mirra_bot',
      TELEGRAM_API_BASE: 'http://127.0.0.1:9999/',
      TRUST_PROXY: '2',
      GEO_COUNTRY_HEADER: 'CF-IPCountry',
      RUN_WORKER: 'false',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://mirra.example');
    expect(config.databaseUrl).toBe('postgres://u:p@db/mirra');
    expect(config.telegram.botUsername).toBe('mirra_bot');
    expect(config.telegram.apiBase).toBe('http://127.0.0.1:9999');
    expect(config.trustProxy).toBe(2);
    expect(config.geoCountryHeader).toBe('cf-ipcountry');
    expect(config.runWorker).toBe('none');
  });

  it('points links at the port and host it runs on when PUBLIC_URL is unset', () => {
    expect(parseConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(parseConfig({ PORT: '4123' }).publicUrl).toBe('http://localhost:4123');
    expect(parseConfig({ PORT: '4123', PUBLIC_URL: '' }).publicUrl).toBe('http://localhost:4123');
    expect(parseConfig({ PORT: '8081', HOST: '192.168.1.20' }).publicUrl).toBe('http://192.168.1.20:8081');
    expect(parseConfig({ PORT: '8081', HOST: 'fd00::7' }).publicUrl).toBe('http://[fd00::7]:8081');
    expect(parseConfig({ PORT: '4123', PUBLIC_URL: 'https://mirra.example' }).publicUrl).toBe(
      'https://mirra.example',
    );
  });

  it('turns the support contacts into a t.me link and an address, none when unset', () => {
    expect(parseConfig({}).support).toEqual({ telegramUrl: null, email: null });
    expect(
      parseConfig({ SUPPORT_TELEGRAM: '@mirra_help', SUPPORT_EMAIL: 'help@mirra.example' }).support,
    ).toEqual({
      telegramUrl: 'https://t.me/mirra_help',
      email: 'help@mirra.example',
    });
    expect(parseConfig({ SUPPORT_TELEGRAM: ' ', SUPPORT_EMAIL: '' }).support).toEqual({
      telegramUrl: null,
      email: null,
    });
    expect(() => parseConfig({ SUPPORT_TELEGRAM: 'https://t.me/x', SUPPORT_EMAIL: 'nobody' })).toThrow(
      /SUPPORT_TELEGRAM[\s\S]*SUPPORT_EMAIL/,
    );
  });

  it('holds prices and the free tier to the bounds the console edits within, so the public config never breaks', () => {
    expect(parseConfig({ FREE_DAILY_PHOTOS: '1000000', PRICE_SIMPLE: '10000' }).freeTier.dailyPhotos).toBe(
      1_000_000,
    );
    expect(() => parseConfig({ FREE_DAILY_PHOTOS: '1000001' })).toThrow(/FREE_DAILY_PHOTOS/);
    expect(() => parseConfig({ PRICE_SIMPLE: '10001' })).toThrow(/PRICE_SIMPLE/);
    expect(() => parseConfig({ FREE_DELAY_SECONDS: '-1' })).toThrow(/FREE_DELAY_SECONDS/);
  });

  it('lists every bad setting in one error', () => {
    expect(() => parseConfig({ PORT: 'eighty', PUBLIC_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*PUBLIC_URL|PUBLIC_URL[\s\S]*PORT/,
    );
  });
});
