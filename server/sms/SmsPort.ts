/**
 * Outgoing text messages (SMS two-factor codes). The only adapter today is FileSms, which writes
 * them to DATA_DIR/sms and is used only when SMS_TO_FILES is set (tests, development): a real
 * deployment has no SMS provider until an adapter for one is added here and chosen in main.ts,
 * and without one the server does not offer SMS two-factor (GET /config smsAvailable: false).
 */
export interface SmsPort {
  send(message: { to: string; text: string }): Promise<void>;
}
