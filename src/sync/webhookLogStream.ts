/**
 * New webhook delivery log entries as the realtime socket announces them (`webhookLog` messages,
 * issue 24). Nothing is kept: only a page showing the log listens, and it reads the log itself
 * when it opens; an entry that came while no page listened is in that read.
 */
import type { WebhookLog } from '../protocol/developers';

type Listener = (log: WebhookLog) => void;

const listeners = new Set<Listener>();

/** Called by the realtime connection for each `webhookLog` message. */
export function publishWebhookLog(log: WebhookLog): void {
  for (const listener of listeners) listener(log);
}

/** Listens to new log entries; returns the unsubscribe function. */
export function subscribeWebhookLogs(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
