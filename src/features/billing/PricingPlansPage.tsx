import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconStorage } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/**
 * /account/plans-and-payments/pricing-plans (spec 002 section 2), where the upgrade prompts lead.
 * A placeholder until the pricing page is built (issue 21's checkout part): the server already
 * enforces each account's plan, which the operator changes with `npm run admin -- plan`.
 */
export function PricingPlansPage() {
  return (
    <>
      <PageHeader title="Plans and billing" description="Pricing plans, billing and invoices." />
      <EmptyPanel
        icon={<IconStorage size={28} />}
        title="Not yet available"
        description="Changing your plan from Cairn is not available on this server yet. Ask the server's operator to move you to another plan."
      />
    </>
  );
}
