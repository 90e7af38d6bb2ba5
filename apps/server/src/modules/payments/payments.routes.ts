import { randomUUID } from 'node:crypto';
import { pickLanguage, routes } from '@mirra/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PaymentsDeps } from './payments.deps.js';
import { AppError } from '../../shared/errors.js';
import { returnUrlFor } from './payments.models.js';
import { paymentsRepository } from './payments.repository.js';
import {
  cancelOrder,
  changeRegion,
  createOrder,
  getCatalogue,
  getInvoiceState,
  getOrder,
  receiveWebhook,
  testProviderOf,
} from './payments.usecases.js';
import { renderTestCheckout } from './test-checkout.page.js';
import { countingWebhookErrors } from '../../shared/metrics.js';
import type { PaymentEvent, ProviderName } from './payment-provider.js';
import { TEST_DECLINING_METHOD_PREFIX } from './providers/test.provider.js';

const r = routes.payments;

/** Each provider's notification route (Stars come as bot updates instead). */
const WEBHOOK_ROUTES = {
  test: r.testWebhook,
  yookassa: r.yookassaWebhook,
  stripe: r.stripeWebhook,
  cryptomus: r.cryptomusWebhook,
} satisfies Partial<Record<ProviderName, unknown>>;

export function registerPaymentsRoutes(app: ZodApp, deps: PaymentsDeps): void {
  const caller = (request: FastifyRequest) => {
    const auth = requireAuth(request);
    return {
      userId: auth.user.id,
      ip: request.ip,
      headers: request.headers,
      inMiniApp: auth.via === 'telegram',
    };
  };

  serve(app, r.catalogue, async (request) => getCatalogue(deps, caller(request)));
  serve(app, r.changeRegion, async (request) => changeRegion(deps, caller(request), request.body.region));
  serve(app, r.createOrder, async (request) => createOrder(deps, caller(request), request.body));
  serve(app, r.order, async (request) => getOrder(deps, requireAuth(request).user.id, request.params.uuid));
  serve(app, r.cancelOrder, async (request) =>
    cancelOrder(deps, requireAuth(request).user.id, request.params.uuid),
  );
  serve(app, r.invoice, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return getInvoiceState(deps, request.params.uuid, request.query.key);
  });

  // Notifications are verified on the exact bytes the provider signed, so this scope keeps them raw.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    for (const [provider, route] of Object.entries(WEBHOOK_ROUTES) as Array<
      [keyof typeof WEBHOOK_ROUTES, (typeof WEBHOOK_ROUTES)[keyof typeof WEBHOOK_ROUTES]]
    >) {
      serve(scope, route, async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        await countingWebhookErrors(provider, () =>
          receiveWebhook(deps, provider, { rawBody, headers: request.headers, sourceIp: request.ip }),
        );
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
 * The test provider's checkout page. The order's uuid with the page's token opens it, like a
 * provider's payment link. What is pressed is sent back to Mirra as a signed notification,
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
      const event: Omit<PaymentEvent, 'eventId'> = {
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
      await receiveWebhook(deps, 'test', {
        rawBody: signed.body,
        headers: signed.headers,
        sourceIp: request.ip,
      });
      const back =
        action === 'refund' ? provider.checkoutUrl(order.uuid) : returnUrlFor(order.returnPath, order.uuid);
      return reply.redirect(back, 303);
    });
  });
}
