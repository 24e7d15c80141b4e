import { Autocomplete, Button, Group, type ComboboxItemGroup } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSession } from '../account/useSession';
import { useSuggestions } from '../../search';
import { setSearchActive } from '../../search/searchActive';
import { readRecentTerms, rememberTerm } from '../../search/searchStore';
import { IconSearch } from '../../ui/icons';

/** Spec 000 section 2: the search button is enabled only for terms longer than 2 characters. */
export const SEARCH_TERM_ABOVE = 2;
/** Spec 000 section 9: search blur debounce. */
export const SEARCH_BLUR_DEBOUNCE_MS = 100;

interface SearchBoxProps {
  initialTerm?: string;
  autoFocus?: boolean;
  /** The top bar's compact form: no visible label. */
  compact?: boolean;
}

/**
 * The autocomplete search box (spec 000 section 2): suggestions from the first character (names
 * from the on-device index), recent terms while empty, and the search button from 3 characters.
 * Enter, the button or picking a suggestion opens /search-results?term=.
 */
export function SearchBox({ initialTerm = '', autoFocus = false, compact = false }: SearchBoxProps) {
  const navigate = useNavigate();
  const { user } = useSession();
  const accountId = user?.id ?? null;
  const [value, setValue] = useState(initialTerm);
  const [isOpen, setOpen] = useState(false);
  const [recent, setRecent] = useState<string[]>(() => (accountId ? readRecentTerms(accountId) : []));
  const blurTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const suggestions = useSuggestions(value);
  const canSearch = value.trim().length > SEARCH_TERM_ABOVE;

  useEffect(() => setValue(initialTerm), [initialTerm]);
  useEffect(
    () => () => {
      if (blurTimer.current) clearTimeout(blurTimer.current);
      setSearchActive(false);
    },
    [],
  );

  function go(term: string) {
    const trimmed = term.trim();
    if (trimmed.length <= SEARCH_TERM_ABOVE) return;
    if (accountId) setRecent(rememberTerm(accountId, trimmed));
    setOpen(false);
    void navigate({ to: '/search-results', search: { term: trimmed } });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    go(value);
  }

  const names = [...new Set(suggestions.map((hit) => hit.name))];
  const data: ComboboxItemGroup<string>[] = value.trim()
    ? names.length
      ? [{ group: 'Suggestions', items: names }]
      : []
    : recent.length
      ? [{ group: 'Recent searches', items: recent }]
      : [];

  return (
    <form onSubmit={submit} role="search" style={{ width: '100%' }}>
      <Group align="flex-end" wrap="nowrap" gap="sm">
        <Autocomplete
          label={compact ? undefined : 'Search your vaults'}
          aria-label="Search your vaults"
          placeholder="File, folder or note"
          value={value}
          onChange={(next) => {
            setValue(next);
            setOpen(true);
          }}
          data={data}
          // The index already chose and ordered these (prefix and fuzzy); no second filter here.
          filter={({ options }) => options}
          onOptionSubmit={(option) => {
            setValue(option);
            go(option);
          }}
          dropdownOpened={isOpen && data.length > 0}
          onFocus={() => {
            if (blurTimer.current) clearTimeout(blurTimer.current);
            setSearchActive(true);
            if (accountId) setRecent(readRecentTerms(accountId));
            setOpen(true);
          }}
          onBlur={() => {
            // Closing a little later lets a click on a suggestion land first.
            blurTimer.current = setTimeout(() => {
              setOpen(false);
              setSearchActive(false);
            }, SEARCH_BLUR_DEBOUNCE_MS);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(false);
          }}
          leftSection={<IconSearch size={16} />}
          autoFocus={autoFocus}
          flex={1}
          maxDropdownHeight={320}
          comboboxProps={{ withinPortal: true }}
        />
        <Button type="submit" disabled={!canSearch}>
          Search
        </Button>
      </Group>
    </form>
  );
}
