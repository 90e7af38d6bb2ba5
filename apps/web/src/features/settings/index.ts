// Settings sheets: password, information pages, social links.
export { ChangePasswordSheet } from './components/change-password-sheet';
export { DeleteAccountSheet } from './components/delete-account-sheet';
export { InfoSheet, type InfoTopic } from './components/info-sheet';
export { SOCIAL_LINKS } from './social-links';
export { downloadMyData } from './export-data';
