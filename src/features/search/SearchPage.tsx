import { Stack } from '@mantine/core';
import { useSearch } from '@tanstack/react-router';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconSearch } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SearchBox } from './SearchBox';
import { SearchResults } from './SearchResults';

/**
 * /search: the search box on its own page (the phone's search icon opens it). Search runs on this
 * device over the decrypted vaults, so it works offline. A `term` shows its results here too.
 */
export function SearchPage() {
  const { term } = useSearch({ strict: false }) as { term?: string };
  return (
    <>
      <PageHeader title="Search" />
      <Stack gap="lg">
        <SearchBox initialTerm={term ?? ''} autoFocus />
        {term ? (
          <SearchResults term={term} />
        ) : (
          <EmptyPanel
            icon={<IconSearch size={28} />}
            title="Search everything in your vaults"
            description="Names of vaults, files, folders and notes, and the words in your notes, are searched here, on this device, after they are decrypted."
          />
        )}
      </Stack>
    </>
  );
}
