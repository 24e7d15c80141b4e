/**
 * {mintType}/metadata (spec 002 sections 4, 5): name, description, owner and creator wallets,
 * types, topics and, for a single NFT, fractional parts. Next is enabled only when the form is
 * valid; setting the owner also sets the creator and the licence's payment address.
 */
import { Button, Group, MultiSelect, NumberInput, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ASSET_TYPE_OPTIONS, metadataErrors, setFractional, setOwner } from '../../../domain/nftMintRules';
import { NFT_LIMITS, type NftAssetType } from '../../../protocol/nfts';
import { useMintAnswers } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

export function MintMetadataPage() {
  const { vaultId, mintType, go } = useMintRoute();
  const [answers, update] = useMintAnswers(vaultId);
  const form = answers.metadata;
  const errors = metadataErrors(form);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const shown = (field: keyof typeof errors) => (touched[field] ? errors[field] : undefined);
  const touch = (field: string) => setTouched((t) => ({ ...t, [field]: true }));
  const isValid = Object.keys(errors).length === 0;

  return (
    <MintStepFrame
      title={mintType === 'collection' ? 'Collection details' : 'NFT details'}
      onBack={() => go('choose-type')}
      isNextDisabled={!isValid}
      onNext={() => go('udl')}
    >
      <TextInput
        label="Name"
        required
        placeholder={`Maximum ${NFT_LIMITS.NAME_MAX} characters`}
        value={form.name}
        maxLength={NFT_LIMITS.NAME_MAX + 1}
        onChange={(e) => update({ metadata: { ...form, name: e.currentTarget.value } })}
        onBlur={() => touch('name')}
        error={shown('name')}
      />
      <Textarea
        label="Description"
        placeholder={`Maximum ${NFT_LIMITS.DESCRIPTION_MAX} characters`}
        autosize
        minRows={2}
        value={form.description}
        onChange={(e) => update({ metadata: { ...form, description: e.currentTarget.value } })}
        onBlur={() => touch('description')}
        error={shown('description') ?? errors.description}
      />
      <TextInput
        label="Owner"
        description="The Arweave wallet address that owns the NFT"
        required
        value={form.owner}
        onChange={(e) => {
          const next = setOwner(form, answers.udlForm, e.currentTarget.value.trim());
          update({ metadata: next.form, udlForm: next.udl });
        }}
        onBlur={() => touch('owner')}
        error={shown('owner')}
      />
      <TextInput
        label="Creator"
        required
        value={form.creator}
        onChange={(e) => update({ metadata: { ...form, creator: e.currentTarget.value.trim() } })}
        onBlur={() => touch('creator')}
        error={shown('creator')}
      />
      <MultiSelect
        label="Types"
        data={ASSET_TYPE_OPTIONS as string[]}
        value={form.types}
        onChange={(types) => update({ metadata: { ...form, types: types as NftAssetType[] } })}
        error={errors.types}
        searchable
      />
      <TagsInput
        label="Topics"
        description="Press Enter after each topic"
        value={form.topics}
        maxTags={NFT_LIMITS.TOPICS_MAX}
        onChange={(topics) => update({ metadata: { ...form, topics } })}
        error={errors.topics}
      />
      <Group align="flex-end" wrap="wrap">
        <Switch
          label="Fractional"
          description={mintType === 'collection' ? 'Each Atomic NFT of the collection is split into parts' : undefined}
          checked={form.isFractional}
          onChange={(e) => update({ metadata: setFractional(form, e.currentTarget.checked) })}
        />
        {form.isFractional && (
          <NumberInput
            label="Fraction parts"
            min={NFT_LIMITS.FRACTION_MIN}
            max={NFT_LIMITS.FRACTION_MAX}
            allowDecimal={false}
            value={form.fractionParts}
            onChange={(value) => update({ metadata: { ...form, fractionParts: String(value) } })}
            error={errors.fractionParts}
          />
        )}
      </Group>
      {!isValid && Object.keys(touched).length === 0 && (
        <Button variant="subtle" size="xs" onClick={() => setTouched({ name: true, owner: true, creator: true })} w="fit-content">
          Show what is missing
        </Button>
      )}
    </MintStepFrame>
  );
}
