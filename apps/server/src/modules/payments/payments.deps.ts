import type { SharedDeps } from '../../shared/deps.js';
import type { GeoLocator } from '../geo/index.js';
import type { PurchaseListener } from './purchase-listener.js';

/** What the payments module is handed at start: its slice of the app's dependencies. */
export interface PaymentsDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'linkSecret' | 'now'> {
  geo: GeoLocator;
  /** Told of paid purchases and refunds in their transaction (the partner programme's commissions). */
  purchaseListener: PurchaseListener;
}
