import { Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Navigate, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canCreateVault } from '../../domain/navigationRules';
import { descriptionRemaining, parseWizardChoices, validateVaultTitle } from '../../domain/vaultWizardRules';
import { VAULT_LIMITS } from '../../protocol/vaults';
import { dismissRejection, pushAndConfirm, startVaultCreation } from '../../sync/vaultActions';
import { useUser } from '../account/useSession';
import { shareNewVaultWithAdmins } from '../organisation/organisationVaults';
import { forgetAdminShare, queueAdminShare, runAdminShare } from '../../sync/adminShares';
import { UpgradeTierModal } from '../billing/UpgradeTierModal';
import { TagEntryInput } from '../../ui/TagEntryInput';
import { ReadOnlyAlert } from './ReadOnlyAlert';
import { errorStatus } from './vaultErrors';
import { useGoToWizardStep } from './wizardNavigation';
import { WizardStep } from './WizardStep';
import { DescriptionInput } from './DescriptionInput';

/** /create-vault: Step 3 of 3, or "Add metadata" when arriving from the setup screen. */
export function VaultMetadataPage() {
  const choices = parseWizardChoices(useSearch({ strict: false }));
  const goTo = useGoToWizardStep();
  const navigate = useNavigate();
  const { isReadOnly } = useServerConfig();
  const user = useUser();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [terms, setTerms] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [isTitleTouched, setTitleTouched] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [isLimitOpen, setLimitOpen] = useState(false);

  if (!choices.storage || !choices.privacy) return <Navigate to="/create-vault/setup" replace />;
  const { storage, privacy } = choices;

  const titleError = validateVaultTitle(title);
  const remaining = descriptionRemaining(description);
  const isValid = titleError === null && remaining >= 0;

  async function create() {
    setBusy(true);
    try {
      const { vaultId, opId } = await startVaultCreation({
        title: title.trim(),
        description,
        tags,
        terms,
        isPublic: privacy === 'public',
        isCloud: storage === 'cloud',
      });
      // R129: queued first, so a vault made offline, or a tab closed too soon, is still shared with
      // the organisation's admins by a later sync cycle (src/sync/adminShares.ts).
      queueAdminShare(user.id, vaultId);
      // Online, the server's answer comes at once: at the plan's vault limit (403 VAULT_LIMIT,
      // SYNC_SPEC R101) the upgrade prompt opens here, over the form the user filled in, and the
      // refused vault is let go since the prompt has told them. Offline it waits in the outbox.
      const answer = await pushAndConfirm(opId);
      if (answer.status === 'rejected') forgetAdminShare(user.id, vaultId);
      if (answer.status === 'rejected' && answer.code === 'VAULT_LIMIT') {
        await dismissRejection(opId);
        setBusy(false);
        setLimitOpen(true);
        return;
      }
      // R129: an organisation person's new vault is shared with the organisation's other admins, in the background.
      if (answer.status === 'accepted') void runAdminShare(user.id, vaultId, shareNewVaultWithAdmins).catch(() => undefined);
      void navigate({ to: '/vaults/$status/$vaultId/assets', params: { status: 'active', vaultId } });
    } catch (error) {
      setBusy(false);
      if (errorStatus(error) === 403) {
        setLimitOpen(true);
      } else {
        notifications.show({ color: 'red', message: 'There was an error creating the vault.', autoClose: 3000 });
      }
    }
  }

  return (
    <WizardStep
      stepLabel={choices.from === 'setup' ? undefined : 'Step 3 of 3'}
      title={choices.from === 'setup' ? 'Add metadata' : 'Describe your vault'}
      onBack={() => goTo(choices.from === 'setup' ? 'setup' : 'privacy', choices)}
      onNext={isBusy || !canCreateVault(isReadOnly) ? null : () => (isValid ? void create() : setTitleTouched(true))}
      isFinal
      nextLabel="Create vault"
      isBusy={isBusy}
    >
      <Stack gap="md">
        {isReadOnly && <ReadOnlyAlert />}
        <Text size="sm" c="dimmed" ta="center">
          {privacy === 'public' ? 'Public' : 'Private'} vault on {storage === 'cloud' ? 'cloud' : 'permanent'} storage
        </Text>
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          onBlur={() => setTitleTouched(true)}
          error={isTitleTouched ? titleError : null}
          placeholder="Max 150 characters"
          data-autofocus
          autoFocus
        />
        <DescriptionInput value={description} onChange={setDescription} />
        <Textarea
          label="Terms of access"
          value={terms}
          onChange={(event) => setTerms(event.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={VAULT_LIMITS.TERMS_MAX}
        />
        <TagEntryInput label="Tags" value={tags} onChange={setTags} maxTagLength={VAULT_LIMITS.TAG_MAX} />
      </Stack>
      <UpgradeTierModal tier="vault" opened={isLimitOpen} onClose={() => setLimitOpen(false)} />
    </WizardStep>
  );
}
