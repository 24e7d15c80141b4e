import { Center, Code, Image, Loader, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { downloadFile } from '../../sync/vaultActions';

/** Previews only what the browser can show safely: images via an object URL, text as text. */
const PREVIEW_MAX_BYTES = 20_000_000;
const TEXT_PREVIEW_MAX_CHARS = 200_000;

function previewKind(mimeType: string, name: string): 'image' | 'text' | null {
  if (mimeType.startsWith('image/') && mimeType !== 'image/svg+xml') return 'image';
  if (mimeType.startsWith('text/') || mimeType === 'application/json' || /\.(md|txt|json|csv|log)$/i.test(name)) return 'text';
  return null;
}

interface FilePreviewProps {
  vaultId: string;
  fileId: string;
  versionId: string;
  name: string;
  mimeType: string;
  size: number;
}

export function FilePreview({ vaultId, fileId, versionId, name, mimeType, size }: FilePreviewProps) {
  const kind = previewKind(mimeType, name);
  const [state, setState] = useState<{ url?: string; text?: string; error?: boolean; progress: number }>({ progress: 0 });

  useEffect(() => {
    if (!kind || size > PREVIEW_MAX_BYTES) return;
    let isCurrent = true;
    let url: string | undefined;
    setState({ progress: 0 });
    downloadFile(vaultId, fileId, versionId, (done: number, total: number) => isCurrent && setState((s) => ({ ...s, progress: total ? (done / total) * 100 : 0 })))
      .then(async (blob) => {
        if (!isCurrent) return;
        if (kind === 'image') {
          url = URL.createObjectURL(blob);
          setState({ url, progress: 100 });
        } else {
          setState({ text: (await blob.text()).slice(0, TEXT_PREVIEW_MAX_CHARS), progress: 100 });
        }
      })
      .catch(() => isCurrent && setState({ error: true, progress: 0 }));
    return () => {
      isCurrent = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [vaultId, fileId, versionId, kind, size]);

  if (!kind || size > PREVIEW_MAX_BYTES) {
    return <Text c="dimmed">No preview for this file. Download it to open it.</Text>;
  }
  if (state.error) return <Text c="red">There was an error.</Text>;
  if (state.url) return <Image src={state.url} alt={name} fit="contain" mah="70vh" radius="md" />;
  if (state.text !== undefined) {
    return (
      <Code block mah="70vh" style={{ overflow: 'auto', whiteSpace: 'pre-wrap' }}>
        {state.text}
      </Code>
    );
  }
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" w={240}>
        <Loader aria-label="Decrypting" />
        <Progress value={state.progress} w="100%" aria-label="Preview download progress" />
      </Stack>
    </Center>
  );
}
