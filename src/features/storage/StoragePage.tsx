import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconStorage } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/** /storage: usage and network transactions (spec 000 section 2); empty until vaults exist. */
export function StoragePage() {
  return (
    <>
      <PageHeader title="Storage" description="Your permanent and cloud storage, and what you have used." />
      <EmptyPanel
        icon={<IconStorage size={28} />}
        title="No network transactions"
        description="Every file you store permanently is listed here with its transaction and status, from scheduled to committed on the network."
      />
    </>
  );
}
