import { ActionIcon, Button, Center, Drawer, Group, Indicator, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Navigate } from '@tanstack/react-router';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { chatPermission, reactionChips } from '../../domain/memoRules';
import { MEMO_LIMITS } from '../../protocol/vaults';
import { useMemos } from '../../storage/memoStore';
import { refreshMembers, useMembers } from '../../sync/memberActions';
import { postMemo, toggleReaction } from '../../sync/memoActions';
import { dismissRejection } from '../../sync/vaultActions';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { FilterCheckList } from '../../ui/FilterCheckList';
import { IconFilter, IconMessage } from '../../ui/icons';
import { runWithErrorSnackbar } from '../../ui/snackbar';
import { useUser } from '../account/useSession';
import { useVaultRoom } from '../files/VaultRoomContext';
import { VaultRoomToolbar } from '../files/VaultRoomToolbar';
import classes from './Chat.module.css';
import { ChatComposer } from './ChatComposer';
import { MemoBubble } from './MemoBubble';
import { ReactionBar } from './ReactionBar';
import { useNewMemoHighlight } from './useNewMemoHighlight';

/** Pixels from the bottom within which the list follows new messages. */
const FOLLOW_SLACK_PX = 80;

/**
 * .../chat (spec 000 section 2, Chat; private vaults only, the route sends public ones to
 * assets): the newest 25 messages with the newest at the bottom, older ones 25 at a time on
 * request or on scrolling to the top, the input below. Everything is read from Dexie, so it works
 * offline; a message sent offline shows at once as 'Sending…' and goes when back online.
 */
export function ChatPage() {
  const { vault, status } = useVaultRoom();
  const vaultId = vault.vaultId;
  const user = useUser();
  const { isReadOnly } = useServerConfig();
  const [limit, setLimit] = useState<number>(MEMO_LIMITS.PAGE_SIZE);
  const page = useMemos(vaultId, limit);
  const members = useMembers(vaultId);
  const highlighted = useNewMemoHighlight(page?.memos);
  const permission = chatPermission({ role: vault.role, status: vault.status, isReadOnly });
  const listRef = useRef<HTMLDivElement>(null);
  const isFollowing = useRef(true);
  const heightBeforeOlder = useRef<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  // The filter drawer's Members list (spec 000 section 2, Vault room): only their messages show.
  const [isFilterOpen, setFilterOpen] = useState(false);
  const [authorKeys, setAuthorKeys] = useState<string[]>([]);
  const isPhone = useMediaQuery('(max-width: 41.6875em)', undefined, { getInitialValueInEffect: false });

  useEffect(() => {
    refreshMembers(vaultId).catch((error: unknown) => console.warn('The member list could not be refreshed', error));
  }, [vaultId]);

  // Relative times ('Just now', '12 minutes ago') move on while the chat is open.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const names = useMemo(() => {
    const byKey = new Map<string, string>();
    for (const member of members ?? []) byKey.set(member.publicSigningKey, member.profileName || member.email || 'Member');
    return byKey;
  }, [members]);
  // Until the member list is read, an unknown key is just a member; after, one who left.
  const nameOf = (authorKey: string) => (authorKey === user.publicSigningKey ? 'You' : (names.get(authorKey) ?? (members ? 'Former member' : 'Member')));

  const memberChoices = useMemo(
    () => [
      { value: user.publicSigningKey, label: 'You' },
      ...(members ?? []).filter((m) => m.publicSigningKey && m.publicSigningKey !== user.publicSigningKey).map((m) => ({ value: m.publicSigningKey, label: m.profileName || m.email || 'Member' })),
    ],
    [members, user.publicSigningKey],
  );
  const shown = useMemo(() => (authorKeys.length && page ? page.memos.filter((m) => authorKeys.includes(m.authorKey)) : page?.memos), [authorKeys, page]);

  const loadOlder = useCallback(() => {
    if (!page?.hasOlder) return;
    heightBeforeOlder.current = listRef.current?.scrollHeight ?? null;
    setLimit((l) => l + MEMO_LIMITS.PAGE_SIZE);
  }, [page?.hasOlder]);

  // Keeps the view on the same message after older ones are added above; otherwise follows the
  // newest message while the user is at the bottom.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !page) return;
    if (heightBeforeOlder.current !== null) {
      list.scrollTop += list.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
    } else if (isFollowing.current) {
      list.scrollTop = list.scrollHeight;
    }
  }, [page]);

  function onScroll() {
    const list = listRef.current;
    if (!list) return;
    isFollowing.current = list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOW_SLACK_PX;
    if (list.scrollTop === 0 && page?.hasOlder) loadOlder();
  }

  async function send(text: string): Promise<boolean> {
    isFollowing.current = true;
    return runWithErrorSnackbar(() => postMemo(vaultId, text), 'The message could not be sent.');
  }

  function react(memoId: string, emoji: string) {
    void runWithErrorSnackbar(() => toggleReaction(vaultId, memoId, emoji), 'The reaction could not be saved.');
  }

  function dismiss(opId: string) {
    void runWithErrorSnackbar(() => dismissRejection(opId), 'There was an error.');
  }

  if (vault.isPublic) return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status, vaultId }} replace />;

  return (
    <>
      <VaultRoomToolbar
        path={[]}
        actions={
          <Tooltip label="Filter the chat">
            <Indicator disabled={authorKeys.length === 0} label={authorKeys.length} size={16} offset={4}>
              <ActionIcon variant={isFilterOpen ? 'light' : 'subtle'} color="gray" size="lg" aria-label="Filter the chat" aria-pressed={isFilterOpen} onClick={() => setFilterOpen((o) => !o)}>
                <IconFilter />
              </ActionIcon>
            </Indicator>
          </Tooltip>
        }
      />
      <Drawer opened={isFilterOpen} onClose={() => setFilterOpen(false)} position="right" size={isPhone ? '85%' : 336} title="Filter the chat">
        <Stack gap="lg">
          <FilterCheckList title="Members" choices={memberChoices} value={authorKeys} onChange={setAuthorKeys} />
          <Group justify="space-between">
            <Button variant="subtle" color="gray" onClick={() => setAuthorKeys([])}>
              Clear filters
            </Button>
            <Button onClick={() => setFilterOpen(false)}>Done</Button>
          </Group>
        </Stack>
      </Drawer>
      <Stack gap="sm">
        {page === undefined ? (
          <Center py="xl">
            <Loader aria-label="Loading messages" />
          </Center>
        ) : page.memos.length === 0 ? (
          <EmptyPanel
            icon={<IconMessage size={28} />}
            title="No messages yet"
            description={permission.canPost ? 'Start the conversation: messages are end-to-end encrypted and only the vault members can read them.' : 'Messages the vault members send will show here.'}
          />
        ) : (
          <div ref={listRef} className={classes.list} onScroll={onScroll} role="log" aria-label="Messages" aria-live="polite" tabIndex={0}>
            {page.hasOlder && (
              <Center>
                <Button variant="subtle" size="xs" onClick={loadOlder}>
                  Load older messages
                </Button>
              </Center>
            )}
            {shown?.length === 0 && (
              <Text size="sm" c="dimmed" ta="center">
                No loaded message is from the chosen members.
              </Text>
            )}
            {shown?.map((m) => {
              const chips = reactionChips(m.reactions, user.publicSigningKey);
              return (
                <MemoBubble
                  key={m.memoId}
                  memo={m}
                  authorName={nameOf(m.authorKey)}
                  isMine={m.authorKey === user.publicSigningKey}
                  isHighlighted={highlighted.has(m.memoId)}
                  now={now}
                  onDismiss={dismiss}
                  reactions={<ReactionBar chips={chips} canReact={permission.canPost && m.rejection?.type !== 'memo.create'} onToggle={(emoji) => react(m.memoId, emoji)} />}
                />
              );
            })}
          </div>
        )}
        <ChatComposer disabledReason={permission.reason} onSend={send} />
      </Stack>
    </>
  );
}
