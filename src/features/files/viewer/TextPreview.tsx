import { Alert, Center, Code, Loader, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatBytes } from '../../../domain/formatting';
import { TEXT_PREVIEW_MAX_BYTES } from '../../../domain/filePreviewRules';
import { MarkdownPreview } from './MarkdownPreview';

/** The first TEXT_PREVIEW_MAX_BYTES of a text file, as text (or an inert markdown rendering). */
export function TextPreview({ blob, isMarkdown }: { blob: Blob; isMarkdown: boolean }) {
  const [text, setText] = useState<{ blob: Blob; value: string } | null>(null);
  const isTruncated = blob.size > TEXT_PREVIEW_MAX_BYTES;

  useEffect(() => {
    let isCurrent = true;
    // A cut in the middle of a UTF-8 sequence decodes to one replacement character: harmless.
    void blob
      .slice(0, TEXT_PREVIEW_MAX_BYTES)
      .text()
      .then((value) => isCurrent && setText({ blob, value }));
    return () => {
      isCurrent = false;
    };
  }, [blob]);

  if (!text || text.blob !== blob) {
    return (
      <Center py="xl">
        <Loader aria-label="Reading the file" />
      </Center>
    );
  }
  return (
    <Stack gap="sm">
      {isTruncated && (
        <Alert color="yellow" variant="light" title="Truncated">
          Showing the first {formatBytes(TEXT_PREVIEW_MAX_BYTES)} of {formatBytes(blob.size)}. Download the file to see all of it.
        </Alert>
      )}
      {isMarkdown ? (
        <MarkdownPreview text={text.value} />
      ) : (
        <Code block component="pre" mah="70vh" style={{ overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="text-preview">
          {text.value}
        </Code>
      )}
    </Stack>
  );
}
