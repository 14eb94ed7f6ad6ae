export { TermsPage } from './terms-page';
export { PrivacyPage } from './privacy-page';
