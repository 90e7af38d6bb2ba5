import { adminRoutes as adminConsoleRoutes } from './admin.routes.js';
import { adminPricingRoutes } from './admin-pricing.routes.js';
import {
  generationsRoutes,
  creditsRoutes,
  mediaRoutes,
  promptHelperRoutes,
  uploadsRoutes,
} from './generations.routes.js';
import { consentsRoutes, modelsRoutes } from './models.routes.js';
import { notificationsRoutes } from './notifications.routes.js';
import { enginesRoutes, paymentsRoutes } from './payments.routes.js';
import { partnersRoutes, payoutsRoutes } from './partners.routes.js';
import { postsRoutes, sharesRoutes, socialRoutes } from './posts.routes.js';
import {
  appConfigRoutes,
  authRoutes,
  devRoutes,
  geoRoutes,
  googleRoutes,
  qsRoutes,
  telegramRoutes,
  usersRoutes,
} from './users.routes.js';
import { subscriptionsRoutes, walletRoutes } from './wallet.routes.js';
import { verifyRoutes } from './provenance.routes.js';
import { takedownsRoutes } from './takedowns.routes.js';
import { adminPhotoPacksRoutes, generationSetsRoutes, photoPacksRoutes } from './photo-packs.routes.js';

export * from './define-route.js';

/**
 * Every HTTP endpoint under /api/, by feature. The server registers each from here and the web
 * app calls each by it; a test fails when the server serves an /api/ route not declared here.
 */
export const routes = {
  appConfig: appConfigRoutes,
  auth: authRoutes,
  consents: consentsRoutes,
  credits: creditsRoutes,
  dev: devRoutes,
  engines: enginesRoutes,
  generations: generationsRoutes,
  generationSets: generationSetsRoutes,
  geo: geoRoutes,
  google: googleRoutes,
  media: mediaRoutes,
  models: modelsRoutes,
  notifications: notificationsRoutes,
  partners: partnersRoutes,
  subscriptions: subscriptionsRoutes,
  takedowns: takedownsRoutes,
  wallet: walletRoutes,
  payments: paymentsRoutes,
  payouts: payoutsRoutes,
  photoPacks: photoPacksRoutes,
  posts: postsRoutes,
  promptHelper: promptHelperRoutes,
  qs: qsRoutes,
  shares: sharesRoutes,
  social: socialRoutes,
  telegram: telegramRoutes,
  uploads: uploadsRoutes,
  users: usersRoutes,
  verify: verifyRoutes,
};

export type Routes = typeof routes;

/**
 * The staff console's routes stay out of `routes`, so the web app's first page, which carries
 * `routes`, does not grow with screens only staff open. Every declaration: `{ ...routes, admin: adminRoutes }`.
 */
export const adminRoutes = { ...adminConsoleRoutes, ...adminPricingRoutes, ...adminPhotoPacksRoutes };
