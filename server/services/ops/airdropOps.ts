/** member.airdrop (spec 001 section 4, Airdrop). CONTRACT for issue 5: written in the airdrop branch. */
import { ApiError } from '../../../src/protocol/errors';
import type { OperationBody } from '../../../src/protocol/vaults';
import type { VaultOpContext } from './OpContext';

export async function applyAirdropOp(_ctx: VaultOpContext, _body: Extract<OperationBody, { type: 'member.airdrop' }>): Promise<void> {
  throw new ApiError('INVALID_OPERATION', 'Airdrop links are not available yet');
}
