import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconFile } from '../../ui/icons';

/**
 * /account/plans-and-payments/invoices (spec 002 section 2): the spec's 'no invoices' empty state
 * (its wording is not shown). Nothing issues invoices yet: checkout, a later part of issue 21, will.
 */
export function InvoicesPage() {
  return (
    <EmptyPanel
      icon={<IconFile size={28} />}
      title="No invoices yet"
      description="When you subscribe to a plan or top up storage, its invoices are listed here to download."
    />
  );
}
