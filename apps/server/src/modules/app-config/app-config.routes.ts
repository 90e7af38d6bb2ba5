import { GENERATION_MODES, routes, type TEngineOffer, type TGenerationMode } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { AppConfigDeps } from './app-config.deps.js';

export function registerAppConfigRoutes(app: ZodApp, deps: AppConfigDeps): void {
  const { config } = deps;
  serve(app, routes.appConfig.get, async () => {
    const pricing = await deps.pricing.current();
    return {
      google_client_id: config.google.clientId ?? null,
      telegram_bot_username: config.telegram.botToken ? (config.telegram.botUsername ?? null) : null,
      telegram_mini_app_name: config.telegram.miniAppName ?? null,
      public_url: config.publicUrl,
      support_telegram_url: config.support.telegramUrl,
      support_email: config.support.email,
      error_reporting: config.errorReporting.webDsn
        ? {
            dsn: config.errorReporting.webDsn,
            release: config.errorReporting.release,
            environment: config.errorReporting.environment,
          }
        : null,
      unavailable_modes: GENERATION_MODES.filter((mode) => !deps.engines.isAvailable(mode)),
      engines: Object.fromEntries(
        GENERATION_MODES.map((mode) => [mode, deps.engines.offerFor(mode)]),
      ) as Record<TGenerationMode, TEngineOffer | null>,
      // Every training builds the offline face profile; a provider's trainer adds an AI model.
      model_training: { ai: deps.modelTrainers.length > 0 },
      prices: pricing.prices,
      free_tier: pricing.free_tier,
    };
  });
}
