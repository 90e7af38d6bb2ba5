/**
 * The partner programme's public face: the screens of /settings/mlm/, /structure/ and the wallet's
 * pay-out, for the pages in app/routes/.
 */
export { PartnerProgramme } from './components/partner-programme';
export { PayoutForm } from './components/payout-form';
export { TeamList } from './components/team-list';
export { TopsList } from './components/tops-list';
