import { randomUUID } from 'node:crypto';
import { pickLanguage, routes, type TPaymentMethod } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PaymentsDeps } from './payments.deps.js';
import { AppError } from '../../shared/errors.js';
import { returnUrlFor } from './payments.models.js';
import { paymentsRepository } from './payments.repository.js';
import {
  availableProviders,
  changeRegion,
  createOrder,
  getCatalogue,
  getOrder,
  receiveWebhook,
  testProviderOf,
} from './payments.usecases.js';
import { renderTestCheckout } from './test-checkout.page.js';
import { TEST_DECLINING_METHOD_PREFIX } from './test-provider.js';
import type { PaymentEvent } from './payment-provider.js';

const r = routes.payments;

/** Each provider's notification route, by payment method. */
const WEBHOOK_ROUTES = { test: r.testWebhook } satisfies Partial<Record<TPaymentMethod, unknown>>;

export function registerPaymentsRoutes(app: ZodApp, deps: PaymentsDeps): void {
  const caller = (
    request: { ip: string; headers: Record<string, string | string[] | undefined> },
    userId: number,
  ) => ({
    userId,
    ip: request.ip,
    headers: request.headers,
  });

  serve(app, r.catalogue, async (request) =>
    getCatalogue(deps, caller(request, requireAuth(request).user.id)),
  );
  serve(app, r.changeRegion, async (request) =>
    changeRegion(deps, caller(request, requireAuth(request).user.id), request.body.region),
  );
  serve(app, r.createOrder, async (request) =>
    createOrder(deps, caller(request, requireAuth(request).user.id), request.body),
  );
  serve(app, r.order, async (request) => getOrder(deps, requireAuth(request).user.id, request.params.uuid));

  // Notifications are verified on the exact bytes the provider signed, so this scope keeps them raw.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    for (const provider of availableProviders(deps)) {
      // Paying from the wallet balance has no provider to notify anyone.
      if (provider.method === 'balance') continue;
      serve(scope, WEBHOOK_ROUTES[provider.method], async (request) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        await receiveWebhook(deps, provider.method, raw, request.headers);
        return { ok: true };
      });
    }
  });

  if (deps.config.payments.testProvider) registerTestCheckout(app, deps);
}

const TEST_ACTIONS = {
  pay: 'payment.succeeded',
  pay_decline_later: 'payment.succeeded',
  decline: 'payment.failed',
  cancel: 'payment.cancelled',
  refund: 'refund.succeeded',
} as const;

/**
 * The test provider's checkout page. The order's uuid (random, known only to its buyer) opens it,
 * like a provider's payment link. What is pressed is sent back to Mirra as a signed notification,
 * through the same verification as any provider's.
 */
function registerTestCheckout(app: ZodApp, deps: PaymentsDeps): void {
  const provider = testProviderOf(deps);
  // Answered as for an order that does not exist unless the page's own token comes with the uuid.
  const orderOr404 = async (uuid: string, token: string | undefined) => {
    const order = provider.isCheckoutToken(uuid, token)
      ? await paymentsRepository.findOrder(deps.db, uuid)
      : undefined;
    if (!order || order.provider !== 'test') {
      throw new AppError({ code: 'payments.order_not_found', detail: 'Not found.' });
    }
    return order;
  };

  serve(app, r.testCheckoutPage, async (request, reply) => {
    const order = await orderOr404(request.params.uuid, request.query.token);
    const html = renderTestCheckout(
      order,
      pickLanguage(request.headers['accept-language']),
      returnUrlFor(order.returnPath, order.uuid),
    );
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  void app.register(async (scope: FastifyInstance) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    serve(scope, r.testCheckoutAction, async (request, reply) => {
      const order = await orderOr404(request.params.uuid, request.query.token);
      const action = request.body.action;
      const event: PaymentEvent = {
        type: TEST_ACTIONS[action],
        orderUuid: order.uuid,
        providerPaymentId: order.providerPaymentId ?? `test_${randomUUID()}`,
        amount: order.amount,
        currency: order.currency,
        // A card kept for renewals: one that pays them, or (to try failures) one that declines them.
        ...(order.saveMethod && action.startsWith('pay')
          ? {
              savedMethodId: `${action === 'pay' ? 'test_pm_' : TEST_DECLINING_METHOD_PREFIX}${randomUUID()}`,
            }
          : {}),
      };
      const signed = provider.signEvent(event);
      await receiveWebhook(deps, 'test', signed.body, signed.headers);
      const back =
        action === 'refund' ? provider.checkoutUrl(order.uuid) : returnUrlFor(order.returnPath, order.uuid);
      return reply.redirect(back, 303);
    });
  });
}
