import { Alert, Button, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { SessionResponse } from '../../protocol/auth';
import { LIMITS } from '../../protocol/primitives';
import { getApiClient } from '../../platform/apiClient';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { errorMessageOf } from '../signup/errorCode';
import { ProfileKeys } from './ProfileKeys';
import { ProfilePhotoField } from './ProfilePhotoField';
import { canSaveProfile, isNameChanged } from './profileRules';
import { SettingsPage } from './SettingsPage';

/** Where the saved photo is served (no-cache, so a later visit shows the latest). */
function photoUrl(address: string): string {
  return `/api/profile/photo/${encodeURIComponent(address)}`;
}

/** /profile: name, photo, e-mail (read-only) and, for password users, the keys. */
export default function ProfilePage() {
  const { user } = useSession();
  const [name, setName] = useState(user?.name ?? '');
  /** undefined: unchanged; a data URL: new photo; null: removed. */
  const [photo, setPhoto] = useState<string | null | undefined>(undefined);
  /** The photo saved in this visit, shown as is: the <img> would not refetch the same URL. */
  const [savedPhoto, setSavedPhoto] = useState<string | null | undefined>(undefined);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!user) return null;

  const formState = { name, savedName: user.name, isPhotoChanged: photo !== undefined };
  const canSave = canSaveProfile(formState) && !isLoading;
  const shownPhoto =
    photo !== undefined ? photo : savedPhoto !== undefined ? savedPhoto : user.hasPhoto ? photoUrl(user.address) : null;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSave) return;
    setLoading(true);
    setError(null);
    try {
      const body = {
        ...(isNameChanged(formState) ? { name: name.trim() } : {}),
        ...(photo !== undefined ? { photo } : {}),
      };
      const { user: updated } = await getApiClient().put('/account/profile', body, SessionResponse);
      authService.setUser(updated);
      setName(updated.name ?? '');
      if (photo !== undefined) setSavedPhoto(photo);
      setPhoto(undefined);
      notifications.show({ message: 'Your profile was updated.', color: 'teal' });
    } catch (err) {
      setError(errorMessageOf(err));
    } finally {
      setLoading(false);
    }
  }

  return (
    <SettingsPage title="Profile">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <ProfilePhotoField src={shownPhoto} name={name} onChange={setPhoto} />
            <TextInput
              label="Name"
              autoComplete="name"
              maxLength={LIMITS.NAME_MAX}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <TextInput label="Email" value={user.email} readOnly variant="filled" />
            <Button type="submit" disabled={!canSave} loading={isLoading}>
              Save
            </Button>
            {error && (
              <Alert color="red" title="Error saving profile" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </form>
      </Paper>
      {!user.passwordless && <ProfileKeys user={user} />}
    </SettingsPage>
  );
}
