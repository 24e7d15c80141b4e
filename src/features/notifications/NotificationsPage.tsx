import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconBell } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/** /notifications (spec 000 section 2): the 'All clear' empty state. */
export function NotificationsPage() {
  return (
    <>
      <PageHeader title="Notifications" />
      <EmptyPanel
        icon={<IconBell size={28} />}
        title="All clear"
        description="Invitations, new files and messages in your vaults will show up here."
      />
    </>
  );
}
