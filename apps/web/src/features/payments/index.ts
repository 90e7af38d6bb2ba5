// Buying credits, premium and wallet money: packages, checkout, the order's status, the wallet and the plan.
export { paymentKeys, paymentsApi } from './api/payments.api';
export { subscriptionKeys } from './api/subscription.api';
export { walletApi, walletKeys } from './api/wallet.api';
export { PurchaseSheet } from './components/purchase-sheet';
export { formatMoney } from './money';
export { SberPayInvoice } from './components/sberpay-invoice';
export { SubscriptionView } from './components/subscription-view';
export { WalletView } from './components/wallet-view';
