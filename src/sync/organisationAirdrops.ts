/**
 * R131: the device accepts, by itself, the vault memberships the server flags as organisation
 * airdrops (`membership.organisationAirdrop`, PENDING), with the same signed `member.accept` the
 * invite page's 'Accept terms' pushes.
 *
 * Why this is safe without asking: the invitation is a `member.invite` signed by an OWNER of the
 * vault, which the server and every device check in the vault's log; the flag only says "accept
 * this one". A hostile server can at worst make the device accept a genuine owner's invitation,
 * and the user can leave the vault afterwards like any other.
 */
import { autoAcceptSelection } from '../features/organisation/organisationRules';
import { acceptInviteIn } from './memberActions';
import { lastVaultList } from './pull';
import { perSessionMap, type SyncContext } from './SyncContext';

/** Memberships being accepted now, per session: each is tried once per refresh, never twice at once. */
const inFlightOf = perSessionMap<true>();

/**
 * Accepts the flagged memberships of the last vault list, one after the other. Online only (the
 * sync cycle runs only online; `acceptInviteIn` refuses offline); a failure is logged and the
 * membership is tried again at the next refresh, since it is still PENDING then.
 * Answers how many were accepted.
 */
export async function acceptOrganisationAirdrops(ctx: SyncContext, accept = acceptInviteIn): Promise<number> {
  const inFlight = inFlightOf(ctx);
  const chosen = autoAcceptSelection(lastVaultList(ctx), new Set(inFlight.keys()));
  let accepted = 0;
  for (const vault of chosen) {
    inFlight.set(vault.membership.id, true);
    try {
      await accept(ctx, vault.vaultId, vault.membership.id);
      accepted += 1;
    } catch (error) {
      ctx.log(`Organisation airdrop of vault ${vault.vaultId} not accepted; tried again at the next refresh`, error);
    } finally {
      inFlight.delete(vault.membership.id);
    }
  }
  return accepted;
}
