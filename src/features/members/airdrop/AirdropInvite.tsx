/**
 * The invite form's airdrop mode (spec 001 sections 3-5): one row only, a free identifier instead
 * of an e-mail, CONTRIBUTOR or VIEWER (OWNER hidden), an expiry date typed as DD/MM/YYYY (valid to
 * the end of that day here) and the storage the member may upload, as a share of the owner's
 * available storage or a figure in MB or GB. 'Generate link' shows the link; the button then reads
 * 'Reset and generate another', which clears the form.
 */
import { Alert, Button, Group, NativeSelect, NumberInput, Paper, SegmentedControl, Slider, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  bytesToPercent,
  bytesToUnits,
  checkExpiryDate,
  DEFAULT_STORAGE_PERCENT,
  percentToBytes,
  STORAGE_UNITS,
  type StorageUnit,
  unitsToBytes,
} from '../../../domain/airdropRules';
import { formatBytes } from '../../../domain/formatting';
import { type AirdropLink, createAirdropLink } from '../../../sync/airdropActions';
import { getVaultUploadRoom } from '../../../sync/vaultActions';
import { errorMessageOf } from '../../signup/errorCode';
import { ApiError } from '../../../protocol/errors';
import { MemberLimitModal } from '../MemberLimitModal';
import { CopyableCode } from '../../../ui/CopyableCode';

/** The invite form's airdrop mode (spec 001 section 5). */
export interface AirdropInviteProps {
  vaultId: string;
  /** The vault is public (no key ring to seal). */
  isPublic: boolean;
}

type AirdropRole = 'CONTRIBUTOR' | 'VIEWER';
const ROLE_OPTIONS = [
  { value: 'CONTRIBUTOR', label: 'Contributor' },
  { value: 'VIEWER', label: 'Viewer' },
];
const NAME_MAX = 100;

/**
 * The owner's free storage for this vault's kind: null while loading, 'unknown' offline. Asked of
 * the vault (GET /vaults/{id}/storage), which answers the account its uploads are charged to, so a
 * second OWNER making the link sees that account's room rather than their own.
 */
function useAvailableStorage(vaultId: string): number | null | 'unknown' {
  const [available, setAvailable] = useState<number | null | 'unknown'>(null);
  useEffect(() => {
    let isCurrent = true;
    getVaultUploadRoom(vaultId)
      .then((room) => isCurrent && setAvailable(room))
      .catch(() => isCurrent && setAvailable('unknown'));
    return () => {
      isCurrent = false;
    };
  }, [vaultId]);
  return available;
}

export function AirdropInvite({ vaultId, isPublic }: AirdropInviteProps) {
  const available = useAvailableStorage(vaultId);
  const [name, setName] = useState('');
  const [role, setRole] = useState<AirdropRole>('CONTRIBUTOR');
  const [dateText, setDateText] = useState('');
  const [isDateTouched, setDateTouched] = useState(false);
  const [percent, setPercent] = useState(DEFAULT_STORAGE_PERCENT);
  const [unit, setUnit] = useState<StorageUnit>('GB');
  /** The figure typed in MB or GB; null while the slider decides. */
  const [amount, setAmount] = useState<number | null>(null);
  const [link, setLink] = useState<AirdropLink | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isLimitOpen, setLimitOpen] = useState(false);

  const availableNow = typeof available === 'number' ? available : 0;
  const canUpload = role === 'CONTRIBUTOR';
  const allowance = !canUpload ? 0 : amount !== null ? unitsToBytes(amount, unit) : percentToBytes(percent, availableNow);
  const isOverAvailable = typeof available === 'number' && allowance > available;
  const expiry = checkExpiryDate(dateText, Date.now());
  const nameError = name.trim() === '' ? null : name.trim().length > NAME_MAX ? `At most ${NAME_MAX} characters.` : null;
  const canGenerate = name.trim() !== '' && !nameError && expiry.ok && typeof available === 'number' && !isOverAvailable && !isBusy;

  function reset() {
    setName('');
    setRole('CONTRIBUTOR');
    setDateText('');
    setDateTouched(false);
    setPercent(DEFAULT_STORAGE_PERCENT);
    setAmount(null);
    setLink(null);
    setError(null);
  }

  async function generate() {
    if (!expiry.ok) return setDateTouched(true);
    setBusy(true);
    setError(null);
    try {
      setLink(
        await createAirdropLink({ vaultId, isPublic, name: name.trim(), role, expiresAt: expiry.expiresAt, storageAllowance: allowance }),
      );
    } catch (err) {
      // Past the vault owner's plan (SYNC_SPEC R102): the members upgrade prompt, as for invitations.
      if (err instanceof ApiError && err.code === 'MEMBER_LIMIT') setLimitOpen(true);
      else setError(errorMessageOf(err));
    } finally {
      setBusy(false);
    }
  }

  const isLocked = link !== null || isBusy;
  return (
    <Stack gap="md" data-testid="airdrop-invite">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Name"
          description="A name you will recognise this link by"
          placeholder="e.g. Auditor, March"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          disabled={isLocked}
          required
          style={{ flex: '2 1 220px' }}
        />
        <NativeSelect
          label="Role"
          data={ROLE_OPTIONS}
          value={role}
          onChange={(e) => setRole(e.currentTarget.value === 'VIEWER' ? 'VIEWER' : 'CONTRIBUTOR')}
          disabled={isLocked}
          style={{ flex: '1 1 140px' }}
        />
      </Group>
      <TextInput
        label="Expiry date"
        description="The link works until the end of this day"
        placeholder="DD/MM/YYYY"
        inputMode="numeric"
        value={dateText}
        onChange={(e) => setDateText(e.currentTarget.value)}
        onBlur={() => setDateTouched(true)}
        error={isDateTouched && !expiry.ok ? expiry.error : null}
        disabled={isLocked}
        required
        maw={300}
      />
      {canUpload && (
        <StorageAllowanceField
          available={available}
          percent={percent}
          amount={amount}
          unit={unit}
          allowance={allowance}
          isOverAvailable={isOverAvailable}
          disabled={isLocked}
          onPercent={(value) => {
            setPercent(value);
            setAmount(null);
          }}
          onAmount={(value) => {
            setAmount(value);
            if (typeof available === 'number') setPercent(bytesToPercent(unitsToBytes(value, unit), available));
          }}
          onUnit={(value) => {
            // The same bytes in the new unit, so switching never changes the allowance.
            setAmount(bytesToUnits(allowance, value));
            setUnit(value);
          }}
        />
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {link && <GeneratedLink url={link.url} />}
      <MemberLimitModal opened={isLimitOpen} onClose={() => setLimitOpen(false)} />
      <Group>
        {link ? (
          <Button variant="default" onClick={reset}>
            Reset and generate another
          </Button>
        ) : (
          <Button onClick={() => void generate()} disabled={!canGenerate} loading={isBusy}>
            Generate link
          </Button>
        )}
      </Group>
    </Stack>
  );
}

interface StorageAllowanceFieldProps {
  available: number | null | 'unknown';
  percent: number;
  amount: number | null;
  unit: StorageUnit;
  allowance: number;
  isOverAvailable: boolean;
  disabled: boolean;
  onPercent: (percent: number) => void;
  onAmount: (amount: number) => void;
  onUnit: (unit: StorageUnit) => void;
}

/** Allowed storage: a slider over the owner's available storage, or a figure in MB or GB. */
function StorageAllowanceField(props: StorageAllowanceFieldProps) {
  const { available, percent, amount, unit, allowance, isOverAvailable, disabled } = props;
  if (available === 'unknown') {
    return <Alert color="yellow">Your storage figures cannot be read right now. Go online to generate a link.</Alert>;
  }
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="airdrop-storage-label">
        Allowed storage
      </Text>
      <Text size="xs" c="dimmed">
        {allowance === 0
          ? 'No uploads: this member can view and download only.'
          : `${formatBytes(allowance)} of your ${available === null ? '…' : formatBytes(available)} available`}
      </Text>
      <Slider
        aria-labelledby="airdrop-storage-label"
        min={0}
        max={100}
        step={1}
        value={percent}
        onChange={props.onPercent}
        label={(value) => `${value}%`}
        marks={[{ value: 0, label: '0%' }, { value: 50, label: '50%' }, { value: 100, label: '100%' }]}
        disabled={disabled || available === null}
        mb="lg"
      />
      <Group gap="xs" align="flex-start">
        <NumberInput
          aria-label={`Allowed storage in ${unit}`}
          value={amount ?? bytesToUnits(allowance, unit)}
          onChange={(value) => props.onAmount(typeof value === 'number' ? value : Number(value) || 0)}
          min={0}
          decimalScale={2}
          allowNegative={false}
          disabled={disabled || available === null}
          error={isOverAvailable ? 'More than your available storage.' : null}
          w={160}
        />
        <SegmentedControl
          aria-label="Storage unit"
          data={[...STORAGE_UNITS]}
          value={unit}
          onChange={(value) => props.onUnit(value as StorageUnit)}
          disabled={disabled}
        />
      </Group>
    </Stack>
  );
}

function GeneratedLink({ url }: { url: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Airdrop link
        </Text>
        <Text size="xs" c="dimmed">
          Anyone with this link can open the vault until it expires. Send it privately.
        </Text>
        <CopyableCode value={url} copyLabel="Copy link" codeProps={{ 'data-testid': 'airdrop-link' }} />
      </Stack>
    </Paper>
  );
}
