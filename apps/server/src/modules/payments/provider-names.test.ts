import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAYMENT_METHODS, PAYMENT_REGIONS } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { WALLET_BALANCE, type PaymentProvider } from './payment-provider.js';
import { PROVIDER_REGISTRATIONS } from './payments.providers.js';

// What a payment provider can do is declared on the provider (its capabilities), so the use cases
// and routes that sell, renew, refund and reward never compare a provider's (or one of its
// methods') name: adding a provider then touches its own file, its fake and its registration only.

const modulesDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED_MODULES = ['payments', 'subscriptions', 'partners', 'wallet', 'credits'];
const SCANNED_FILE = /\.(usecases|routes)\.ts$/;

/** Every provider's name and every way to pay it serves, as the API names them; and the bot's. */
const NAMES = [
  ...new Set([
    ...PAYMENT_METHODS.filter((method) => method !== 'balance').flatMap((method) => [
      method,
      method.split('_')[0]!,
    ]),
    'telegram',
  ]),
];
const NAME_LITERAL = new RegExp(
  `(['"\`])(${NAMES.join('|')})(_[a-z_]*)?\\1|(['"\`])(${NAMES.join('|')})_`,
  'g',
);

/** The source without its comments (a comment may explain what a provider does). */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function scannedFiles(): string[] {
  return SCANNED_MODULES.flatMap((module) =>
    readdirSync(join(modulesDir, module), { recursive: true, encoding: 'utf8' })
      .filter((file) => SCANNED_FILE.test(file) && !file.endsWith('.test.ts'))
      .map((file) => join(modulesDir, module, file)),
  );
}

/** `file:line: text` of each provider-name literal in the file's code. */
function providerNamesIn(file: string): string[] {
  return code(readFileSync(file, 'utf8'))
    .split('\n')
    .flatMap((line, index) =>
      line.match(NAME_LITERAL) ? [`${relative(modulesDir, file)}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('payment providers are known by their capabilities', () => {
  it('the scan sees the use cases and routes of every money module', () => {
    const files = scannedFiles().map((file) => relative(modulesDir, file));
    expect(files.some((file) => file.startsWith('payments/') && file.endsWith('.usecases.ts'))).toBe(true);
    expect(files.some((file) => file.startsWith('subscriptions/') && file.endsWith('.usecases.ts'))).toBe(
      true,
    );
    expect(files.some((file) => file.startsWith('partners/'))).toBe(true);
    // The scan itself finds a name where there is one.
    expect("if (order.provider === 'stripe') {}".match(NAME_LITERAL)).not.toBeNull();
    expect('m.startsWith(`yookassa_`)'.match(NAME_LITERAL)).not.toBeNull();
  });

  it('no use case or route names a payment provider or one of its methods', () => {
    expect(scannedFiles().flatMap(providerNamesIn)).toEqual([]);
  });
});

/** Every registered provider as a server with all their keys builds it (nothing is called). */
function everyProvider(): PaymentProvider[] {
  const local = 'http://127.0.0.1:9';
  const deps = {
    config: {
      publicUrl: local,
      payments: {
        testProvider: true,
        yookassa: {
          shopId: 'shop',
          secretKey: 'key',
          apiBase: local,
          methods: ['bank_card', 'sberbank', 'sbp'],
        },
        stripe: { secretKey: 'sk_test_capabilities', webhookSecret: 'whsec_capabilities', apiBase: local },
        cryptomus: { merchantId: 'merchant', apiKey: 'key', apiBase: local },
        stars: true,
      },
    },
    db: {},
    linkSecret: 'capabilities-test',
    telegramBot: {},
    now: () => new Date(),
  };
  return PROVIDER_REGISTRATIONS.map((registration) => registration.create(deps as never)!);
}

describe('each provider declares what it can do, and does it', () => {
  const providers = everyProvider();

  it('every registration builds its provider, under its own name', () => {
    expect(providers.map((provider) => provider?.name)).toEqual(PROVIDER_REGISTRATIONS.map((r) => r.name));
  });

  it('every way to pay the API names is served by exactly one provider (or is the wallet)', () => {
    for (const method of PAYMENT_METHODS) {
      const serving = providers.filter((provider) => provider.capabilities.methods.includes(method));
      expect([method, serving.length]).toEqual([method, method === WALLET_BALANCE ? 0 : 1]);
    }
  });

  it('declares only what it implements', () => {
    for (const { name, capabilities, chargeSavedMethod, cancelSubscription } of providers) {
      const facts = { name, ...capabilities };
      expect(capabilities.regions.length, name).toBeGreaterThan(0);
      expect(
        capabilities.regions.every((region) => PAYMENT_REGIONS.includes(region)),
        name,
      ).toBe(true);
      expect(capabilities.currencies.length, name).toBeGreaterThan(0);
      // Mirra renews by charging a saved method only where the provider can charge one…
      expect(capabilities.recurring === 'saved_method', name).toBe(Boolean(chargeSavedMethod));
      // …and stops a provider's own subscription only where it has them.
      expect(capabilities.recurring === 'provider', name).toBe(Boolean(cancelSubscription));
      // A trial starts with the provider's own methods, and needs a way to renew after it.
      expect(
        capabilities.trialMethods.every((method) => capabilities.methods.includes(method)),
        name,
      ).toBe(true);
      if (capabilities.trialMethods.length > 0) expect(facts.recurring).not.toBe('none');
      expect(capabilities.invoicePageMethods.every((method) => capabilities.methods.includes(method))).toBe(
        true,
      );
    }
  });
});
