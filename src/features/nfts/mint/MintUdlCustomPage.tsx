/**
 * {mintType}/udl-custom (spec 002 sections 2, 5, 9): Access, Derivations, Unknown rights,
 * Commercial use, Data Model Training, Currency, Duration, Payment address. An invalid value marks
 * its field ('Enter a number') and keeps Next disabled.
 */
import { Alert, Fieldset, Group, Select, Switch, TextInput } from '@mantine/core';
import { grantTypesOf, udlErrors, type GrantForm, type UdlForm } from '../../../domain/nftMintRules';
import type { NftFeeType, UdlTerm } from '../../../protocol/nfts';
import { useMintAnswers } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

const FEE_TYPES: NftFeeType[] = ['One-Time', 'Monthly'];

const TERM_LABELS: Record<UdlTerm, string> = { derivation: 'Derivations', commercialUse: 'Commercial use', dataModelTraining: 'Data Model Training' };

function GrantFields({ term, value, error, onChange }: { term: UdlTerm; value: GrantForm; error?: string; onChange: (value: GrantForm) => void }) {
  const label = TERM_LABELS[term];
  return (
    <Fieldset legend={label}>
      <Group align="flex-start" wrap="wrap">
        <Select
          label={`${label} type`}
          data={grantTypesOf(term).map((type) => ({ value: type, label: type === 'None' ? 'Not allowed' : type }))}
          value={value.type}
          allowDeselect={false}
          onChange={(type) => type && onChange({ ...value, type: type as GrantForm['type'] })}
        />
        {value.type === 'Allowed-With-RevenueShare' && (
          <TextInput label="Revenue share (%)" inputMode="decimal" value={value.value} onChange={(e) => onChange({ ...value, value: e.currentTarget.value })} error={error} />
        )}
        {value.type === 'Allowed-With-Fee' && (
          <>
            <Select label="Fee type" data={FEE_TYPES} value={value.feeType} allowDeselect={false} onChange={(feeType) => feeType && onChange({ ...value, feeType: feeType as NftFeeType })} />
            <TextInput label="Fee" inputMode="decimal" value={value.value} onChange={(e) => onChange({ ...value, value: e.currentTarget.value })} error={error} />
          </>
        )}
      </Group>
    </Fieldset>
  );
}

/** The UDL's option lists (spec section 9) with the labels the screen shows. */
const UNKNOWN_RIGHTS_OPTIONS: { value: UdlForm['unknownUsageRights']; label: string }[] = [
  { value: 'Included', label: 'None (included)' },
  { value: 'Excluded', label: 'Excluded' },
];
const PAYMENT_MODE_OPTIONS: { value: NonNullable<UdlForm['paymentMode']>; label: string }[] = [
  { value: 'Random-Distribution', label: 'Random distribution' },
  { value: 'Global-Distribution', label: 'Global distribution' },
];

export function MintUdlCustomPage() {
  const { vaultId, go } = useMintRoute();
  const [answers, update] = useMintAnswers(vaultId);
  const form = answers.udlForm;
  const errors = udlErrors(form);
  const set = (change: Partial<UdlForm>) => update({ udlForm: { ...form, ...change } });
  return (
    <MintStepFrame title="Customize UDL settings" onBack={() => go('udl')} onNext={() => go('ucm')} isNextDisabled={Object.keys(errors).length > 0}>
      <Alert color="yellow" title="Review before minting">
        These terms cannot be edited once the NFT is minted.
      </Alert>
      <Fieldset legend="Access">
        <Group align="flex-start" wrap="wrap">
          <Switch label="One-time fee" checked={form.hasLicenseFee} onChange={(e) => set({ hasLicenseFee: e.currentTarget.checked })} mt="sm" />
          {form.hasLicenseFee && (
            <TextInput label="License fee" inputMode="decimal" value={form.licenseFee} onChange={(e) => set({ licenseFee: e.currentTarget.value })} error={errors.licenseFee} />
          )}
        </Group>
      </Fieldset>
      <GrantFields term="derivation" value={form.derivation} error={errors.derivation} onChange={(derivation) => set({ derivation })} />
      <Fieldset legend="Unknown rights">
        <Select
          label="Unknown usage rights"
          data={UNKNOWN_RIGHTS_OPTIONS}
          value={form.unknownUsageRights}
          allowDeselect={false}
          onChange={(value) => value && set({ unknownUsageRights: value as UdlForm['unknownUsageRights'] })}
        />
      </Fieldset>
      <GrantFields term="commercialUse" value={form.commercialUse} error={errors.commercialUse} onChange={(commercialUse) => set({ commercialUse })} />
      <GrantFields term="dataModelTraining" value={form.dataModelTraining} error={errors.dataModelTraining} onChange={(dataModelTraining) => set({ dataModelTraining })} />
      <Fieldset legend="Currency">
        <TextInput label="Currency" value={form.currency} onChange={(e) => set({ currency: e.currentTarget.value })} error={errors.currency} />
      </Fieldset>
      <Fieldset legend="Duration">
        <TextInput
          label="Duration (years)"
          description="Leave empty for an indefinite licence"
          inputMode="numeric"
          value={form.expires}
          onChange={(e) => set({ expires: e.currentTarget.value })}
          error={errors.expires}
        />
      </Fieldset>
      <Fieldset legend="Payment address">
        <TextInput label="Payment address" value={form.paymentAddress} onChange={(e) => set({ paymentAddress: e.currentTarget.value.trim() })} error={errors.paymentAddress} />
        <Select
          label="Payment mode"
          data={PAYMENT_MODE_OPTIONS}
          value={form.paymentMode}
          clearable
          onChange={(value) => set({ paymentMode: value as UdlForm['paymentMode'] })}
          mt="sm"
        />
      </Fieldset>
    </MintStepFrame>
  );
}
