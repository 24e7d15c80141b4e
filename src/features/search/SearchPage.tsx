import { Button, Group, Text, TextInput } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconSearch } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/** Spec 000 section 2: the search button is enabled only for terms longer than 2 characters. */
const SEARCH_TERM_ABOVE = 2;

/**
 * /search. Search runs on this device over your decrypted vaults; with no vaults yet there is
 * nothing to find, and the page says so.
 */
export function SearchPage() {
  const { term } = useSearch({ strict: false }) as { term?: string };
  const navigate = useNavigate();
  const [value, setValue] = useState(term ?? '');
  const canSearch = value.trim().length > SEARCH_TERM_ABOVE;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canSearch) void navigate({ to: '/search', search: { term: value.trim() } });
  }

  return (
    <>
      <PageHeader title="Search" />
      <form onSubmit={submit} role="search">
        <Group align="flex-end" mb="lg" wrap="nowrap" gap="sm">
          <TextInput
            label="Search your vaults"
            placeholder="File, folder, note or message"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            flex={1}
            leftSection={<IconSearch size={16} />}
            autoFocus
          />
          <Button type="submit" disabled={!canSearch}>
            Search
          </Button>
        </Group>
      </form>
      {term ? (
        <EmptyPanel
          icon={<IconSearch size={28} />}
          title="Sorry, there were no search results."
          description={<Text inherit>Nothing matches “{term}” in your vaults.</Text>}
        />
      ) : (
        <EmptyPanel
          icon={<IconSearch size={28} />}
          title="Search everything in your vaults"
          description="Names of files and folders, notes and chat messages are searched here, on this device, after they are decrypted."
        />
      )}
    </>
  );
}
