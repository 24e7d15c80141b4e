import { Box, Button, Menu } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { IconDownload, IconFile, IconFileZip, IconFolder, IconPlus, IconUpload } from '../../ui/icons';

interface PlusMenuProps {
  isDisabled: boolean;
  /** Why the upload entries are disabled while folders may still be made; null: they are enabled. */
  uploadDisabledReason: string | null;
  isInFolder: boolean;
  onUploadFiles: () => void;
  onUploadFolder: () => void;
  /** Upload zip & unpack; null hides it (every vault has it since issue 19: it unpacks on the device). */
  onUploadZip: (() => void) | null;
  onCreateFolder: () => void;
  /** Create note (a note is a markdown file, so it is an upload). */
  onCreateNote: () => void;
  /**
   * Import > Network transaction; null hides it (public permanent vaults only, spec 000 section 2).
   * The Import submenu's other sources are left out: the file-sharing service has no
   * configuration flag that enables it here, and the drive service is hidden by the spec.
   */
  onImportTransaction?: (() => void) | null;
}

/** The 'Add an asset' plus menu (spec 000 section 2, vault room). */
export function PlusMenu({ isDisabled, uploadDisabledReason, isInFolder, onUploadFiles, onUploadFolder, onUploadZip, onCreateFolder, onCreateNote, onImportTransaction = null }: PlusMenuProps) {
  const isUploadDisabled = uploadDisabledReason !== null;
  const [isImportOpen, setImportOpen] = useState(false);
  const firstImportEntry = useRef<HTMLButtonElement>(null);
  const isPhone = useMediaQuery('(max-width: 41.6875em)', undefined, { getInitialValueInEffect: false });
  // Mantine opens a submenu on hover and ArrowRight only: a click, a tap or Enter opens it too, and
  // moves the focus into it so the keyboard goes on from there.
  const openImport = () => {
    setImportOpen(true);
    window.setTimeout(() => firstImportEntry.current?.focus(), 16);
  };
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
        {onImportTransaction && (
          // The menu hangs from a button at the right edge: the submenu opens to its left, and on a
          // phone (no room there) below Import, the last entry, so it covers no other entry.
          <Menu.Sub opened={isImportOpen && !isUploadDisabled} onChange={setImportOpen} position={isPhone ? 'bottom-end' : 'left-start'}>
            <Menu.Sub.Target>
              <Menu.Sub.Item leftSection={<IconDownload size={16} />} disabled={isUploadDisabled} onClick={openImport}>
                Import
              </Menu.Sub.Item>
            </Menu.Sub.Target>
            <Menu.Sub.Dropdown>
              <Menu.Item ref={firstImportEntry} onClick={onImportTransaction}>
                Network transaction
              </Menu.Item>
            </Menu.Sub.Dropdown>
          </Menu.Sub>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
