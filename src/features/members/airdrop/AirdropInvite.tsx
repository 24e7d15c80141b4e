/** The invite form's airdrop mode (spec 001 section 5). CONTRACT for issue 5: written in the airdrop branch. */
export interface AirdropInviteProps {
  vaultId: string;
  /** The vault is public (no key ring to seal). */
  isPublic: boolean;
}

export function AirdropInvite(_props: AirdropInviteProps) {
  return null;
}
