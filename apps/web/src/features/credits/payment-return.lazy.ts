// Loaded on demand, when an address carries a checkout's return marker (`?payment=<order>`).
export { PaymentReturn as default } from './components/payment-return';
