import { routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth, viaMiniApp } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import { cancelSubscription, getSubscription, startSubscription } from './subscriptions.usecases.js';

const r = routes.subscriptions;

export function registerSubscriptionsRoutes(app: ZodApp, deps: SubscriptionsDeps): void {
  const caller = (request: FastifyRequest, userId: number) => ({
    userId,
    ip: request.ip,
    headers: request.headers,
    inMiniApp: viaMiniApp(requireAuth(request)),
  });

  serve(app, r.mine, async (request) => getSubscription(deps, caller(request, requireAuth(request).user.id)));
  serve(app, r.start, async (request) =>
    startSubscription(deps, caller(request, requireAuth(request).user.id), request.body),
  );
  serve(app, r.cancel, async (request) => {
    const userId = requireAuth(request).user.id;
    await cancelSubscription(deps, userId);
    return getSubscription(deps, caller(request, userId));
  });
}
