import { UpgradeTierModal } from '../billing/UpgradeTierModal';

/** Spec 000 section 8: the members upgrade prompt, on 403 MEMBER_LIMIT (SYNC_SPEC R102). */
export function MemberLimitModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return <UpgradeTierModal tier="member" opened={opened} onClose={onClose} />;
}
