import { Box, Button, Group, Modal, Slider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { cropToJpegDataUrl } from './cropImage';
import { PHOTO_ZOOM } from './profileRules';

interface PhotoCropModalProps {
  /** Object URL of the chosen file, or null when closed. */
  imageSrc: string | null;
  onCancel: () => void;
  onCropped: (dataUrl: string) => void;
}

/** Round crop with a zoom slider; outputs a 256x256 JPEG data URL. */
export function PhotoCropModal({ imageSrc, onCancel, onCropped }: PhotoCropModalProps) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(PHOTO_ZOOM.min);
  const [area, setArea] = useState<Area | null>(null);
  const [isWorking, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleApply() {
    if (!imageSrc || !area) return;
    setWorking(true);
    setError(null);
    try {
      onCropped(await cropToJpegDataUrl(imageSrc, area));
      setZoom(PHOTO_ZOOM.min);
      setCrop({ x: 0, y: 0 });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The image could not be processed.');
    } finally {
      setWorking(false);
    }
  }

  return (
    <Modal opened={imageSrc !== null} onClose={onCancel} title="Crop your photo" centered size="md">
      <Stack gap="md">
        <Box pos="relative" h={280} bg="dark.7" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
          {imageSrc && (
            <Cropper
              image={imageSrc}
              crop={crop}
              zoom={zoom}
              minZoom={PHOTO_ZOOM.min}
              maxZoom={PHOTO_ZOOM.max}
              zoomSpeed={0.2}
              aspect={1}
              cropShape="round"
              showGrid={false}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
            />
          )}
        </Box>
        <Stack gap={4}>
          <Text size="sm" fw={500} aria-hidden>
            Zoom
          </Text>
          <Slider
            min={PHOTO_ZOOM.min}
            max={PHOTO_ZOOM.max}
            step={PHOTO_ZOOM.step}
            value={zoom}
            onChange={setZoom}
            label={(value) => `${value.toFixed(1)}×`}
            thumbLabel="Zoom"
          />
        </Stack>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={handleApply} loading={isWorking} disabled={!area}>
            Apply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
