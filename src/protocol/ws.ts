/**
 * WebSocket messages on `/api/ws` (JSON text frames). The server validates every client message
 * against `ClientMessage`; anything else is answered with an `error` message and the socket stays
 * open. The server speaks first with `hello`.
 */
import { z } from 'zod';
import { isErrorCode, type ErrorCode } from './errors';
import { Notification } from './members';
import { StorageTransaction } from './arweave';
import { MicroBalance } from './ledger';
import { WebhookLog } from './developers';

/** Client to server: a keep-alive the server answers with the same id. */
export const PingMessage = z.strictObject({ type: z.literal('ping'), id: z.string().min(1).max(64) });

export const ClientMessage = z.discriminatedUnion('type', [PingMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;

const ErrorCodeSchema = z.custom<ErrorCode>((value) => isErrorCode(value), 'Unknown error code');

export const HelloMessage = z.object({ type: z.literal('hello'), protocolVersion: z.number() });
export const PongMessage = z.object({ type: z.literal('pong'), id: z.string() });
/** Vault `vaultId` is at `seq` on the server: pull it if behind (docs/SYNC_SPEC.md R3). */
export const PokeMessage = z.object({ type: z.literal('poke'), vaultId: z.string(), seq: z.number().int().nonnegative() });
/** A notification for the socket's user was created or grew (docs/SYNC_SPEC.md R31): upsert it by id. */
export const NotificationMessage = z.object({ type: z.literal('notification'), notification: Notification });
/** A storage transaction of the socket's user (or of a vault it is a member of) changed status (R36): upsert it by id. */
export const StorageTransactionMessage = z.object({ type: z.literal('storageTransaction'), transaction: StorageTransaction });
/**
 * The socket's user's $U balance changed (a reward or a transfer, SYNC_SPEC R109): millionths of a
 * U after the ledger's entry `headSeq`; a message with a lower headSeq than one already seen is stale.
 */
export const TokenBalanceMessage = z.object({ type: z.literal('tokenBalance'), balance: MicroBalance, headSeq: z.number().int().nonnegative() });
/** A delivery of the socket's user's webhook was logged (issue 24): prepend it to the log. */
export const WebhookLogMessage = z.object({ type: z.literal('webhookLog'), log: WebhookLog });
/** A rejected client message, in the same shape as the HTTP error body's `error`. */
export const ErrorMessage = z.object({
  type: z.literal('error'),
  error: z.object({ code: ErrorCodeSchema, message: z.string() }),
});

export const ServerMessage = z.discriminatedUnion('type', [HelloMessage, PongMessage, PokeMessage, NotificationMessage, StorageTransactionMessage, TokenBalanceMessage, WebhookLogMessage, ErrorMessage]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Largest client frame the server accepts, in bytes. */
export const WS_MAX_MESSAGE_BYTES = 64 * 1024;
