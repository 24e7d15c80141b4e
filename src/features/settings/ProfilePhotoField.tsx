import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { PhotoCropModal } from './PhotoCropModal';

const ACCEPTED_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

interface ProfilePhotoFieldProps {
  /** What to show now: the new cropped data URL, the saved photo's URL, or null. */
  src: string | null;
  name: string;
  onChange: (dataUrl: string | null) => void;
}

/** The avatar with 'Upload photo' (opens the crop dialog) and 'Remove'. */
export function ProfilePhotoField({ src, name, onChange }: ProfilePhotoFieldProps) {
  const [fileUrl, setFileUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => {
    if (fileUrl) URL.revokeObjectURL(fileUrl);
  }, [fileUrl]);

  function handleFile(file: File | null) {
    setError(null);
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setError('Choose an image file (PNG, JPEG, WebP or GIF).');
      return;
    }
    setFileUrl(URL.createObjectURL(file));
  }

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Photo
      </Text>
      <Group gap="md" wrap="nowrap">
        <Avatar src={src} alt={name ? `${name}'s photo` : 'Your photo'} size={72} radius="xl" name={name || undefined} color="initials" />
        <Group gap="xs">
          <FileButton onChange={handleFile} accept={ACCEPTED_TYPES}>
            {(props) => (
              <Button variant="default" size="sm" {...props}>
                {src ? 'Change photo' : 'Upload photo'}
              </Button>
            )}
          </FileButton>
          {src && (
            <Button variant="subtle" color="red" size="sm" onClick={() => onChange(null)}>
              Remove
            </Button>
          )}
        </Group>
      </Group>
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
      <PhotoCropModal
        imageSrc={fileUrl}
        onCancel={() => setFileUrl(null)}
        onCropped={(dataUrl) => {
          onChange(dataUrl);
          setFileUrl(null);
        }}
      />
    </Stack>
  );
}
