import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconRewards } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/** /rewards: tokens earned for permanent uploads and referrals (spec 002); empty for now. */
export function RewardsPage() {
  return (
    <>
      <PageHeader title="Rewards" description="What you earn for storing files permanently and inviting friends." />
      <EmptyPanel
        icon={<IconRewards size={28} />}
        title="No rewards yet"
        description="Each file you save forever earns tokens, and every friend who signs up with your referral link adds 100 MB of free storage. They will be listed here."
      />
    </>
  );
}
