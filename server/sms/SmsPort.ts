/** Outgoing text messages. The default writes files; a provider adapter replaces it in production. */
export interface SmsPort {
  send(message: { to: string; text: string }): Promise<void>;
}
