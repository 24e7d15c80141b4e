import { Box, Button, Menu } from '@mantine/core';
import { IconFile, IconFileZip, IconFolder, IconPlus, IconUpload } from '../../ui/icons';

interface PlusMenuProps {
  isDisabled: boolean;
  /** Why the upload entries are disabled while folders may still be made; null: they are enabled. */
  uploadDisabledReason: string | null;
  isInFolder: boolean;
  onUploadFiles: () => void;
  onUploadFolder: () => void;
  /** Upload zip & unpack; null hides it (public vaults only, spec 000 section 2). */
  onUploadZip: (() => void) | null;
  onCreateFolder: () => void;
  /** Create note (a note is a markdown file, so it is an upload). */
  onCreateNote: () => void;
}

/** The 'Add an asset' plus menu (spec 000 section 2, vault room). */
export function PlusMenu({ isDisabled, uploadDisabledReason, isInFolder, onUploadFiles, onUploadFolder, onUploadZip, onCreateFolder, onCreateNote }: PlusMenuProps) {
  const isUploadDisabled = uploadDisabledReason !== null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button leftSection={<IconPlus size={18} />} disabled={isDisabled} aria-label="Add an asset" data-tour="add-asset">
          Add
          <Box component="span" visibleFrom="xs">
            &nbsp;an asset
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {isUploadDisabled && <Menu.Label>{uploadDisabledReason}</Menu.Label>}
        <Menu.Item leftSection={<IconUpload size={16} />} onClick={onUploadFiles} disabled={isUploadDisabled}>
          Upload file
        </Menu.Item>
        <Menu.Item leftSection={<IconUpload size={16} />} onClick={onUploadFolder} disabled={isUploadDisabled}>
          Upload folder
        </Menu.Item>
        {onUploadZip && (
          <Menu.Item leftSection={<IconFileZip size={16} />} onClick={onUploadZip} disabled={isUploadDisabled}>
            Upload zip &amp; unpack
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconFile size={16} />} onClick={onCreateNote} disabled={isUploadDisabled}>
          Create note
        </Menu.Item>
        <Menu.Item leftSection={<IconFolder size={16} />} onClick={onCreateFolder}>
          {isInFolder ? 'Create sub folder' : 'Create folder'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
