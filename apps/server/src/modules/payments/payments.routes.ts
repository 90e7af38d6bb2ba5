import { routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth, viaMiniApp } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import { countingWebhookErrors } from '../../shared/metrics.js';
import type { PaymentsDeps } from './payments.deps.js';
import { PROVIDER_REGISTRATIONS } from './payments.providers.js';
import {
  cancelOrder,
  changeRegion,
  createOrder,
  getCatalogue,
  getInvoiceState,
  getOrder,
} from './checkout.usecases.js';
import { receiveWebhook } from './provider-events.usecases.js';

const r = routes.payments;

export function registerPaymentsRoutes(app: ZodApp, deps: PaymentsDeps): void {
  const caller = (request: FastifyRequest) => {
    const auth = requireAuth(request);
    return {
      userId: auth.user.id,
      ip: request.ip,
      headers: request.headers,
      inMiniApp: viaMiniApp(auth),
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
    // Each provider's notification route, registered whether or not this server has its keys
    // (one it has none for answers as a forged notification).
    for (const { name, webhook } of PROVIDER_REGISTRATIONS) {
      if (!webhook) continue;
      serve(scope, webhook, async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        await countingWebhookErrors(name, () =>
          receiveWebhook(deps, name, { rawBody, headers: request.headers, sourceIp: request.ip }),
        );
        return { ok: true };
      });
    }
  });

  // Pages a provider has of its own (the test provider's checkout).
  for (const registration of PROVIDER_REGISTRATIONS) {
    registration.registerRoutes?.(app, deps, (name, inbound) => receiveWebhook(deps, name, inbound));
  }
}
