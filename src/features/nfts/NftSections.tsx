import { Paper, Stack, Text, Title } from '@mantine/core';
import type { NftRecord } from '../../domain/nftsOfVault';
import type { NftChainState, Udl } from '../../protocol/nfts';
import { InfoList } from '../../ui/InfoList';
import { balanceText, nftStatusText, UDL_NONE, udlLines } from './nftText';

/** 'On-chain data': the NFT id is its data item id once the relay made it (R137, R140). */
export function OnChainSection({ nft, state, headingOrder = 2 }: { nft: NftRecord; state: NftChainState | undefined; headingOrder?: 2 | 3 }) {
  const balances = Object.entries(nft.balances).map(([address, tokens]) => `${address}: ${balanceText(tokens)}`);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="nft-on-chain">
      <Title order={headingOrder} size="h4" id="nft-on-chain" mb="sm">
        On-chain data
      </Title>
      <InfoList
        items={[
          ['NFT id', state?.dataItemId ?? 'Not on the network yet'],
          ['Bundle transaction', state?.txId ?? 'Not bundled yet'],
          ['Owner', nft.owner],
          ['Creator', nft.creator],
          ['Balances', balances.join('; ')],
          ['Status', nftStatusText(state)],
        ]}
      />
    </Paper>
  );
}

/** 'Universal Data License': the terms with spec 002's display defaults, or None when removed. */
export function UdlSection({ udl, headingOrder = 2 }: { udl: Udl | null; headingOrder?: 2 | 3 }) {
  const lines = udlLines(udl);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="nft-udl">
      <Title order={headingOrder} size="h4" id="nft-udl" mb="sm">
        Universal Data License
      </Title>
      {lines ? (
        <InfoList items={lines.map((line) => [line.label, line.value])} />
      ) : (
        <Stack gap={0}>
          <Text size="sm">{UDL_NONE}</Text>
        </Stack>
      )}
    </Paper>
  );
}
