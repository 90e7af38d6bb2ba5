/**
 * The partner programme's public face: the screens of /settings/mlm/, /structure/ and the wallet's
 * pay-out, for the pages in app/routes/.
 */
export { PartnerProgramme } from './components/partner-programme';
export { WalletMoneyOut } from './components/money-out';
export { chooseMoneyCurrency, useMoneyCurrency } from './hooks/use-money-currency';
export { TeamList } from './components/team-list';
export { TopsList } from './components/tops-list';
