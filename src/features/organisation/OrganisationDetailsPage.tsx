import { Alert, Anchor, Button, ColorInput, FileInput, Group, Image, Paper, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { PRICING_PLANS_PATH } from '../billing/UpgradeTierModal';
import { useServerConfig } from '../../app/serverConfigStore';
import { LogoDataUrl, ORGANISATION_LIMITS, type Organisation } from '../../protocol/organisations';
import { showSnackbar } from '../../ui/snackbar';
import { createOrganisation, organisationErrorText, updateOrganisation } from './organisationApi';
import {
  canSaveDetails,
  createBody,
  type DetailsDraft,
  detailsErrors,
  draftOf,
  logoFileError,
  updateBody,
} from './organisationRules';
import { reloadMyOrganisation, useMyOrganisationValue } from './useMyOrganisation';

/**
 * The host a subdomain is put in front of: the server's BASE_DOMAIN (GET /api/config), else the
 * organisation's own address without its first label, else this app's host name.
 */
function baseDomainOf(organisation: Organisation | null, configured: string | null | undefined): string {
  if (configured) return configured;
  if (organisation?.subdomainUrl) {
    try {
      return new URL(organisation.subdomainUrl).host.split('.').slice(1).join('.');
    } catch {
      // Fall through to this app's host.
    }
  }
  return window.location.hostname;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * The organisation's subdomain is being set up: polls it (the server marks it done when a request
 * reaches it there, SYNC_SPEC R125) and asks the server again every SUBDOMAIN_POLL_MS.
 */
function usePollPendingSubdomain(organisation: Organisation | null) {
  const url = organisation?.subdomainStatus === 'pending' ? organisation.subdomainUrl : null;
  useEffect(() => {
    if (!url) return;
    const timer = setInterval(() => {
      // The answer cannot be read (no-cors) and need not be: reaching the subdomain is what counts.
      // The page's Content-Security-Policy must let it out (connect-src the subdomains, server/app.ts).
      void fetch(`${url}/api/health`, { method: 'HEAD', mode: 'no-cors', cache: 'no-store' })
        .catch(() => {})
        .finally(() => void reloadMyOrganisation());
    }, ORGANISATION_LIMITS.SUBDOMAIN_POLL_MS);
    return () => clearInterval(timer);
  }, [url]);
}

/** /account/organisation/details (spec 001 sections 2, 5 and 9). */
export function OrganisationDetailsPage() {
  const value = useMyOrganisationValue();
  const organisation = value?.organisation ?? null;
  const saved = useMemo(() => draftOf(organisation), [organisation]);
  const [draft, setDraft] = useState<DetailsDraft>(saved);
  const [touched, setTouched] = useState<Partial<Record<keyof DetailsDraft, boolean>>>({});
  const [logoError, setLogoError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  usePollPendingSubdomain(organisation);
  const baseDomain = baseDomainOf(organisation, useServerConfig().config?.baseDomain);

  // A save or a poll brings the server's version: the form starts from it again.
  useEffect(() => setDraft(saved), [saved]);

  if (!value) return null;
  if (!organisation && !value.canCreate) {
    return (
      <Alert color="yellow" role="alert" title="Not in your plan">
        Your plan does not include the 'Organisation account' feature.{' '}
        <Anchor component={Link} to={PRICING_PLANS_PATH}>
          See the plans
        </Anchor>
      </Alert>
    );
  }

  if (organisation?.subdomainStatus === 'pending') {
    return (
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs" role="status" aria-label="Subdomain setup">
          <Text fw={600}>Your organisation's address is being set up</Text>
          <Text size="sm">
            {organisation.subdomainUrl ?? `${organisation.subdomain}.${baseDomain}`} will open Cairn for{' '}
            {organisation.name} once it is ready. This page checks every few seconds; the details can be changed again then.
          </Text>
        </Stack>
      </Paper>
    );
  }

  const errors = detailsErrors(draft);
  const isNew = !organisation;
  const canSave = canSaveDetails(saved, draft, isNew) && !isSaving;
  const shown = (key: keyof DetailsDraft) => (touched[key] ? errors[key] : undefined);
  const change = (key: keyof DetailsDraft, next: string) => {
    setDraft((current) => ({ ...current, [key]: next }));
    setTouched((current) => ({ ...current, [key]: true }));
    setServerError(null);
  };

  async function pickLogo(file: File | null) {
    setLogoError(null);
    if (!file) return;
    const refused = logoFileError(file);
    if (refused) {
      setLogoError(refused);
      return;
    }
    try {
      change('logo', await readAsDataUrl(file));
    } catch {
      setLogoError('The file could not be read');
    }
  }

  async function save() {
    setIsSaving(true);
    setServerError(null);
    try {
      if (isNew) await createOrganisation(createBody(draft));
      else {
        const body = updateBody(saved, draft);
        if (body) await updateOrganisation(organisation.id, body);
      }
      await reloadMyOrganisation();
      setTouched({});
      showSnackbar('Organisation details saved');
    } catch (error) {
      setServerError(organisationErrorText(error));
    } finally {
      setIsSaving(false);
    }
  }

  // Only a data URL of an image type is ever put in <img>: an SVG there cannot run anything.
  const preview = LogoDataUrl.safeParse(draft.logo).success ? draft.logo : null;

  return (
    <Paper withBorder radius="md" p={{ base: 'md', xs: 'lg' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (canSave) void save();
        }}
      >
        <Stack gap="md">
          {organisation?.subdomainStatus === 'done' && organisation.subdomainUrl && (
            <Text size="sm">
              Your organisation's address:{' '}
              <Anchor href={organisation.subdomainUrl} target="_blank" rel="noopener noreferrer">
                {organisation.subdomainUrl}
              </Anchor>
            </Text>
          )}
          <TextInput
            label="Organisation name"
            required
            maxLength={ORGANISATION_LIMITS.NAME_MAX}
            value={draft.name}
            error={shown('name')}
            onChange={(event) => change('name', event.currentTarget.value)}
          />
          <TextInput
            label="Subdomain"
            description="Letters and digits only"
            required
            maxLength={ORGANISATION_LIMITS.SUBDOMAIN_MAX}
            value={draft.subdomain}
            error={shown('subdomain')}
            onChange={(event) => change('subdomain', event.currentTarget.value)}
            rightSection={<Text size="sm" c="dimmed" pr="xs">.{baseDomain}</Text>}
            rightSectionWidth={Math.min(220, 16 + 8 * (baseDomain.length + 1))}
            rightSectionPointerEvents="none"
          />
          <FileInput
            label="Logo"
            description={`JPG, PNG or SVG, at most 1 MB, recommended width ${ORGANISATION_LIMITS.LOGO_RECOMMENDED_WIDTH} px`}
            placeholder={draft.logo ? 'Choose another logo' : 'Choose a logo'}
            required
            accept="image/png,image/jpeg,image/svg+xml"
            clearable={false}
            error={logoError ?? shown('logo')}
            onChange={(file) => void pickLogo(file)}
          />
          {preview && (
            <Image src={preview} alt="Logo preview" maw={250} mah={120} fit="contain" radius="sm" style={{ alignSelf: 'flex-start' }} />
          )}
          <Group grow align="flex-start" wrap="wrap">
            <ColorInput
              label="Primary colour"
              format="hex"
              placeholder="#1c7ed6"
              miw={200}
              value={draft.primaryColor}
              error={shown('primaryColor')}
              onChange={(next) => change('primaryColor', next)}
            />
            <ColorInput
              label="Secondary colour"
              format="hex"
              placeholder="#868e96"
              miw={200}
              value={draft.secondaryColor}
              error={shown('secondaryColor')}
              onChange={(next) => change('secondaryColor', next)}
            />
          </Group>
          {serverError && (
            <Alert color="red" role="alert">
              {serverError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" disabled={!canSave} loading={isSaving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
