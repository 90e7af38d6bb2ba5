import type { TPaymentMethod, TPaymentRegion } from '@mirra/contracts';
import { findUserById } from '../users/index.js';
import type { PaymentsDeps } from './payments.deps.js';
import { providerOfMethod, type PaymentProvider, type ProviderName } from './payment-provider.js';
import { createCryptomusProvider } from './providers/cryptomus.provider.js';
import { createStarsProvider } from './providers/stars.provider.js';
import { createStripeProvider } from './providers/stripe.provider.js';
import { createTestProvider, testProviderKey } from './providers/test.provider.js';
import { createYooKassaProvider } from './providers/yookassa.provider.js';

type Deps = Pick<PaymentsDeps, 'config' | 'db' | 'linkSecret' | 'telegramBot' | 'now'>;

/** Where each provider posts its notifications. */
export const webhookPath = (provider: ProviderName) => `/api/payments/webhooks/${provider}/`;

const testProviders = new Map<string, ReturnType<typeof createTestProvider>>();
/** The test provider of this server (its key derives from the server secret). */
export function testProviderOf(deps: Pick<PaymentsDeps, 'linkSecret'>) {
  let provider = testProviders.get(deps.linkSecret);
  if (!provider) {
    provider = createTestProvider(testProviderKey(deps.linkSecret));
    testProviders.set(deps.linkSecret, provider);
  }
  return provider;
}

const registries = new WeakMap<
  object,
  { bot: PaymentsDeps['telegramBot']; providers: Map<ProviderName, PaymentProvider> }
>();

/** The providers this server has keys for, built once per configuration. */
export function configuredProviders(deps: Deps): Map<ProviderName, PaymentProvider> {
  const cached = registries.get(deps.config);
  if (cached && cached.bot === deps.telegramBot) return cached.providers;
  const payments = deps.config.payments;
  const registry = new Map<ProviderName, PaymentProvider>();
  if (payments.testProvider) registry.set('test', testProviderOf(deps));
  if (payments.yookassa) registry.set('yookassa', createYooKassaProvider(payments.yookassa));
  if (payments.stripe)
    registry.set(
      'stripe',
      createStripeProvider(payments.stripe, () => deps.now()),
    );
  if (payments.cryptomus) {
    registry.set(
      'cryptomus',
      createCryptomusProvider({
        ...payments.cryptomus,
        callbackUrl: `${deps.config.publicUrl}${webhookPath('cryptomus')}`,
      }),
    );
  }
  if (payments.stars && deps.telegramBot) {
    registry.set(
      'stars',
      createStarsProvider(
        deps.telegramBot,
        async (userId) => (await findUserById(deps.db, userId))?.telegramId ?? null,
      ),
    );
  }
  registries.set(deps.config, { bot: deps.telegramBot, providers: registry });
  return registry;
}

export function providerNamed(deps: Deps, name: ProviderName): PaymentProvider | undefined {
  return configuredProviders(deps).get(name);
}

/**
 * The ways to pay offered to a buyer: those configured, that charge in the region's currency
 * (YooKassa in roubles for Russia, Stripe in dollars elsewhere, Cryptomus in both), Stars only
 * inside the Mini App, then the wallet's balance. Without `where`: every configured way.
 */
export function availableMethods(
  deps: Deps,
  where?: { region: TPaymentRegion; inMiniApp: boolean },
): TPaymentMethod[] {
  const providers = configuredProviders(deps);
  const methods: TPaymentMethod[] = [];
  const yookassa = deps.config.payments.yookassa;
  if ((!where || where.region === 'ru') && yookassa && providers.has('yookassa')) {
    for (const type of yookassa.methods) methods.push(`yookassa_${type}`);
  }
  if ((!where || where.region === 'intl') && providers.has('stripe')) methods.push('stripe');
  if (providers.has('cryptomus')) methods.push('cryptomus');
  if ((!where || where.inMiniApp) && providers.has('stars')) methods.push('stars');
  if (providers.has('test')) methods.push('test');
  methods.push('balance');
  return methods;
}

/** The ways to pay whose provider can charge a saved method again (Mirra-run renewals need one). */
export function recurringMethods(deps: Deps): TPaymentMethod[] {
  return availableMethods(deps).filter((method) => {
    if (method === 'balance') return false;
    return Boolean(providerNamed(deps, providerOfMethod(method))?.chargeSavedMethod);
  });
}
