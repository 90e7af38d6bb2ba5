export { paymentKeys, paymentsApi } from './api/payments.api';
export { PurchaseSheet } from './components/purchase-sheet';
