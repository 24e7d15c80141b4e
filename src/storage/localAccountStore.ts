/**
 * Everything the account service keeps on this device, as one module whose namespace satisfies
 * `LocalAccountStore` (src/features/account/createAuthService.ts):
 * `import * as localAccountStore from '../../storage/localAccountStore'`.
 */
export { deleteWallet, loadWallet, saveWallet } from './walletStore';
export { getAccount, saveAccount } from './accountStore';
export { wipeAccountData } from './wipeAccountData';
