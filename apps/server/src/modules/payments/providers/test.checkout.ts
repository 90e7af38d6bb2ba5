import { randomUUID } from 'node:crypto';
import { pickLanguage, routes } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import { serve } from '../../../shared/http/serve-route.js';
import type { ZodApp } from '../../../shared/http/zod-app.js';
import type { InboundWebhook, PaymentEvent, ProviderName } from '../payment-provider.js';
import type { PaymentsDeps } from '../payments.deps.js';
import { returnUrlFor } from '../payments.models.js';
import { paymentsRepository } from '../payments.repository.js';
import { renderTestCheckout } from '../test-checkout.page.js';
import { TEST_DECLINING_METHOD_PREFIX, testProviderOf } from './test.provider.js';

const r = routes.payments;

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
 * through the same verification as any provider's (`receive`).
 */
export function registerTestCheckout(
  app: ZodApp,
  deps: Pick<PaymentsDeps, 'db' | 'linkSecret'>,
  receive: (name: ProviderName, inbound: InboundWebhook) => Promise<void>,
): void {
  const provider = testProviderOf(deps);
  // Answered as for an order that does not exist unless the page's own token comes with the uuid.
  const orderOr404 = async (uuid: string, token: string | undefined) => {
    const order = provider.isCheckoutToken(uuid, token)
      ? await paymentsRepository.findOrder(deps.db, uuid)
      : undefined;
    if (!order || order.provider !== provider.name) {
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
      await receive(provider.name, { rawBody: signed.body, headers: signed.headers, sourceIp: request.ip });
      const back =
        action === 'refund' ? provider.checkoutUrl(order.uuid) : returnUrlFor(order.returnPath, order.uuid);
      return reply.redirect(back, 303);
    });
  });
}
