import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { canCreateVault } from '../../domain/navigationRules';
import { useServerConfig } from '../../app/serverConfigStore';
import { useSearchResults, useSearchStatus } from '../../search';
import { IconPlus } from '../../ui/icons';
import { SearchBox } from './SearchBox';
import { resultCountText, SEARCH_PAGE_SIZE, SearchResults } from './SearchResults';

/** 'Indexing vaults (x/y)' while the first indexing runs, else '1 result' / 'N results'. */
function ResultsHeading({ term }: { term: string }) {
  const { progress } = useSearchStatus();
  const results = useSearchResults(term, 0, SEARCH_PAGE_SIZE);
  const text = progress ? `Indexing vaults (${progress.done}/${progress.total})` : results ? resultCountText(results.total) : '';
  return (
    <Title order={1} fz={{ base: 24, xs: 28 }} aria-live="polite" data-testid="search-results-heading">
      {text}
    </Title>
  );
}

/** /search-results?term= (spec 000 section 2): the results of the term in the address. */
export function SearchResultsPage() {
  const { term = '' } = useSearch({ strict: false }) as { term?: string };
  const { isReadOnly } = useServerConfig();
  return (
    <Stack gap="lg">
      {/* The top bar holds the box on desktop; a phone gets it here. */}
      <Box hiddenFrom="xs">
        <SearchBox initialTerm={term} />
      </Box>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Stack gap={4} miw={0}>
          <ResultsHeading term={term} />
          <Text c="dimmed" truncate>
            for “{term}”
          </Text>
        </Stack>
        <Button component={Link} to="/create-vault/setup" leftSection={<IconPlus size={18} />} visibleFrom="xs" disabled={!canCreateVault(isReadOnly)}>
          New vault
        </Button>
      </Group>
      <SearchResults term={term} />
    </Stack>
  );
}
