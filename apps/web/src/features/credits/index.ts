// Credits: the balance, its history, the dialogs of a refused paid action, the return from a
// checkout, and the paid-action hook every charged button uses.
export { creditKeys, MOVES_WITH_BALANCE, refreshBalance } from './api/credits.api';
export { ChargeDialogs } from './components/charge-dialogs';
export { CreditsButton } from './components/credits-button';
export { PaymentReturn } from './components/payment-return';
export { useChargedAction } from './hooks/use-charged-action';
export { useCreditBalance } from './hooks/use-credit-balance';
