import { Button, Group, Modal, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';

/** Which limit was hit: the spec's three upgrade prompts (spec 000 and 002 section 8). */
export type UpgradeTier = 'vault' | 'member' | 'topUp';

/** Titles are the spec's, verbatim; the sentence under each is ours (the spec shows none). */
const TEXTS: Record<UpgradeTier, { title: string; body: string }> = {
  vault: { title: "You've hit the vault limit", body: 'You have as many vaults as your plan allows. Upgrade your plan to create more vaults.' },
  member: { title: "You've hit the member limit", body: 'This vault has as many members as your plan allows. Upgrade your plan to invite more people.' },
  topUp: { title: "You've hit the top up limit", body: 'You have topped up as much storage as your plan allows. Upgrade your plan to add more.' },
};

/** Where Upgrade leads (spec 002 section 2). */
export const PRICING_PLANS_PATH = '/account/plans-and-payments/pricing-plans';

/**
 * The upgrade-tier modal: opened when the server refuses a change with VAULT_LIMIT or
 * MEMBER_LIMIT (403, SYNC_SPEC R101-R102), or a top-up with TOPUP_LIMIT (R118, from the top-up
 * form). Upgrade goes to the pricing plans page.
 */
export function UpgradeTierModal({ tier, opened, onClose }: { tier: UpgradeTier; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const { title, body } = TEXTS[tier];
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text size="sm" mb="lg">
        {body}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            onClose();
            void navigate({ to: PRICING_PLANS_PATH });
          }}
        >
          Upgrade
        </Button>
      </Group>
    </Modal>
  );
}
