// Buying credits: packages, checkout and the order's status.
export { paymentKeys, paymentsApi } from './api/payments.api';
export { PurchaseSheet } from './components/purchase-sheet';
