/** The /account pages, as the router imports them (spec 001 section 2: Account screens). */
export { AccountMenuPage } from './AccountMenuPage';
export { ChangePasswordPage } from './ChangePasswordPage';
export { DisplayPage } from './DisplayPage';
export { NotificationsSettingsPage } from './NotificationsSettingsPage';
export { OfflineFilesPage } from './OfflineFilesPage';
export { RevealPhrasePage } from './RevealPhrasePage';
export { SecurityPage } from './SecurityPage';
export { TwoFactorPage } from './TwoFactorPage';
export { TwoFactorPhonePage } from './TwoFactorPhonePage';
export { TwoFactorTotpPage } from './TwoFactorTotpPage';
