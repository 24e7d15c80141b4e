import { ActionIcon, Anchor, Breadcrumbs, Group, NavLink, Paper, ScrollArea, Text } from '@mantine/core';
import { useChildren, useFolderPath } from '../../storage/vaultStore';
import { IconArrowLeft, IconChevronRight, IconFolder } from '../../ui/icons';

interface FolderPickerProps {
  vaultId: string;
  vaultName: string;
  /** The folder being browsed is the chosen destination (null: the vault root). */
  value: string | null;
  onChange: (folderId: string | null) => void;
  /** Folders that cannot be chosen or opened: the moved items (so their subtrees are out too). */
  excludedIds?: ReadonlySet<string>;
}

/**
 * The folder list's height, whatever it holds (about four rows, then it scrolls): the folders load
 * after the dialog opens, and a list that grew then would move the dialog's buttons under the
 * pointer of someone about to click them.
 */
const FOLDER_LIST_HEIGHT = 160;

/** Browse the vault's folders to choose a destination (move and upload confirmation). */
export function FolderPicker({ vaultId, vaultName, value, onChange, excludedIds }: FolderPickerProps) {
  const children = useChildren(vaultId, value);
  const path = useFolderPath(vaultId, value);
  const folders = (children ?? []).filter((n) => n.kind === 'folder' && !excludedIds?.has(n.id));
  const parentId = path.length >= 2 ? path[path.length - 2]!.id : null;

  return (
    <Paper withBorder radius="md" p="xs">
      <Group gap="xs" wrap="nowrap" mb={4}>
        <ActionIcon variant="subtle" color="gray" disabled={value === null} onClick={() => onChange(parentId)} aria-label="Up one folder">
          <IconArrowLeft size={16} />
        </ActionIcon>
        <Breadcrumbs separatorMargin={4} styles={{ root: { flexWrap: 'wrap', minWidth: 0 } }} aria-label="Destination">
          <Anchor component="button" type="button" size="sm" onClick={() => onChange(null)}>
            {vaultName || 'Vault'}
          </Anchor>
          {path.map((folder) => (
            <Anchor key={folder.id} component="button" type="button" size="sm" onClick={() => onChange(folder.id)}>
              {folder.name}
            </Anchor>
          ))}
        </Breadcrumbs>
      </Group>
      <ScrollArea h={FOLDER_LIST_HEIGHT} type="auto">
        {children === undefined ? null : folders.length === 0 ? (
          <Text size="sm" c="dimmed" p="xs">
            No folders here.
          </Text>
        ) : (
          folders.map((folder) => (
            <NavLink
              key={folder.id}
              component="button"
              type="button"
              label={folder.name}
              leftSection={<IconFolder size={16} />}
              rightSection={<IconChevronRight size={14} />}
              onClick={() => onChange(folder.id)}
              aria-label={`Open ${folder.name}`}
            />
          ))
        )}
      </ScrollArea>
    </Paper>
  );
}
