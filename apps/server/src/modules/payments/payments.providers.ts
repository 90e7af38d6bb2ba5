import {
  CURRENCY_XTR,
  routes,
  type TPaymentMethod,
  type TPaymentMethodFacts,
  type TPaymentRegion,
} from '@mirra/contracts';
import type { ZodApp } from '../../shared/http/zod-app.js';
import { findUserById } from '../users/index.js';
import type { PaymentsDeps } from './payments.deps.js';
import {
  WALLET_BALANCE,
  type InboundWebhook,
  type PaymentProvider,
  type ProviderName,
} from './payment-provider.js';
import { createCryptomusProvider } from './providers/cryptomus.provider.js';
import { createStarsProvider } from './providers/stars.provider.js';
import { createStripeProvider } from './providers/stripe.provider.js';
import { registerTestCheckout } from './providers/test.checkout.js';
import { testProviderOf } from './providers/test.provider.js';
import { createYooKassaProvider } from './providers/yookassa.provider.js';

export { testProviderOf } from './providers/test.provider.js';

type Deps = Pick<PaymentsDeps, 'config' | 'db' | 'linkSecret' | 'telegramBot' | 'now'>;

/** A provider's notification route: the raw body, answered `{ ok: true }` once applied. */
type WebhookRoute = Extract<(typeof routes.payments)[keyof typeof routes.payments], { requestKind: 'raw' }>;

/**
 * How Mirra registers one provider: its name, where its notifications arrive, how it is built
 * from this server's configuration, and any page of its own Mirra serves. Everything a use case
 * needs to know about it is on the provider it builds (`capabilities`).
 */
export interface ProviderRegistration {
  readonly name: ProviderName;
  /** Its notification route; absent: its notifications come another way (Stars: bot updates). */
  readonly webhook?: WebhookRoute;
  /** The provider when this server has its keys; null otherwise. */
  create(deps: Deps): PaymentProvider | null;
  /** Pages of its own (the test provider's checkout); `receive` applies a notification. */
  registerRoutes?(
    app: ZodApp,
    deps: PaymentsDeps,
    receive: (name: ProviderName, inbound: InboundWebhook) => Promise<void>,
  ): void;
}

/** Every provider Mirra has an adapter for, in the order their ways to pay are offered. */
export const PROVIDER_REGISTRATIONS: readonly ProviderRegistration[] = [
  {
    name: 'yookassa',
    webhook: routes.payments.yookassaWebhook,
    create: (deps) =>
      deps.config.payments.yookassa ? createYooKassaProvider(deps.config.payments.yookassa) : null,
  },
  {
    name: 'stripe',
    webhook: routes.payments.stripeWebhook,
    create: (deps) =>
      deps.config.payments.stripe
        ? createStripeProvider(deps.config.payments.stripe, () => deps.now())
        : null,
  },
  {
    name: 'cryptomus',
    webhook: routes.payments.cryptomusWebhook,
    create: (deps) =>
      deps.config.payments.cryptomus
        ? createCryptomusProvider({
            ...deps.config.payments.cryptomus,
            callbackUrl: `${deps.config.publicUrl}${routes.payments.cryptomusWebhook.path}`,
          })
        : null,
  },
  {
    name: 'stars',
    create: (deps) =>
      deps.config.payments.stars && deps.telegramBot
        ? createStarsProvider(
            deps.telegramBot,
            async (userId) => (await findUserById(deps.db, userId))?.telegramId ?? null,
          )
        : null,
  },
  {
    name: 'test',
    webhook: routes.payments.testWebhook,
    create: (deps) => (deps.config.payments.testProvider ? testProviderOf(deps) : null),
    registerRoutes: (app, deps, receive) => {
      if (deps.config.payments.testProvider) registerTestCheckout(app, deps, receive);
    },
  },
];

const registries = new WeakMap<
  object,
  { bot: PaymentsDeps['telegramBot']; providers: Map<ProviderName, PaymentProvider> }
>();

/** The providers this server has keys for, built once per configuration, in the order offered. */
export function configuredProviders(deps: Deps): Map<ProviderName, PaymentProvider> {
  const cached = registries.get(deps.config);
  if (cached && cached.bot === deps.telegramBot) return cached.providers;
  const registry = new Map<ProviderName, PaymentProvider>();
  for (const registration of PROVIDER_REGISTRATIONS) {
    const provider = registration.create(deps);
    if (provider) registry.set(registration.name, provider);
  }
  registries.set(deps.config, { bot: deps.telegramBot, providers: registry });
  return registry;
}

/** The configured provider of that name (an order's `provider`); undefined when there is none. */
export function providerNamed(deps: Deps, name: string): PaymentProvider | undefined {
  return configuredProviders(deps).get(name as ProviderName);
}

/** The configured provider serving a way to pay; undefined for the wallet balance or none configured. */
export function providerOfMethod(deps: Deps, method: string): PaymentProvider | undefined {
  for (const provider of configuredProviders(deps).values()) {
    if ((provider.capabilities.methods as readonly string[]).includes(method)) return provider;
  }
  return undefined;
}

/**
 * The ways to pay offered to a buyer: those of the configured providers offered in the buyer's
 * region (each provider declares its regions), the Mini App's own only inside it, then the
 * wallet's balance. Without `where`: every configured way.
 */
export function availableMethods(
  deps: Deps,
  where?: { region: TPaymentRegion; inMiniApp: boolean },
): TPaymentMethod[] {
  const methods: TPaymentMethod[] = [];
  for (const { capabilities } of configuredProviders(deps).values()) {
    if (where && !capabilities.regions.includes(where.region)) continue;
    if (where && capabilities.miniAppOnly && !where.inMiniApp) continue;
    methods.push(...capabilities.methods);
  }
  methods.push(WALLET_BALANCE);
  return methods;
}

/** The ways to pay whose provider can charge a saved method again (Mirra-run renewals need one). */
export function recurringMethods(deps: Deps): TPaymentMethod[] {
  return availableMethods(deps).filter(
    (method) => providerOfMethod(deps, method)?.capabilities.recurring === 'saved_method',
  );
}

/**
 * The ways to pay a subscription can be bought with: those whose provider renews it (a saved
 * method Mirra charges, or the provider's own subscription), and the wallet. A provider of one-off
 * payments only (cryptocurrency) cannot renew.
 */
export function subscriptionMethods(
  deps: Deps,
  where: { region: TPaymentRegion; inMiniApp: boolean },
): TPaymentMethod[] {
  return availableMethods(deps, where).filter(
    (method) =>
      method === WALLET_BALANCE ||
      (providerOfMethod(deps, method)?.capabilities.recurring ?? 'none') !== 'none',
  );
}

/** Of these ways to pay, those a free trial can start with (each provider declares its own). */
export function trialMethods(deps: Deps, methods: TPaymentMethod[]): TPaymentMethod[] {
  return methods.filter((method) =>
    providerOfMethod(deps, method)?.capabilities.trialMethods.includes(method),
  );
}

/** Whether a way to pay charges in Telegram Stars (its price is the product's Stars price). */
export function chargesInStars(deps: Deps, method: string): boolean {
  return Boolean(providerOfMethod(deps, method)?.capabilities.currencies.includes(CURRENCY_XTR));
}

/** What the client needs to know of these ways to pay, from their providers' capabilities. */
export function methodFacts(deps: Deps, methods: TPaymentMethod[]): TPaymentMethodFacts {
  return {
    receipt_email_methods: methods.filter(
      (method) => providerOfMethod(deps, method)?.capabilities.receiptEmail,
    ),
    stars_methods: methods.filter((method) => chargesInStars(deps, method)),
  };
}
