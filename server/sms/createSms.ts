import path from 'node:path';
import type { Config } from '../config';
import { FileSms } from './FileSms';
import type { SmsPort } from './SmsPort';
import { TwilioSms } from './TwilioSms';
import { WebhookSms } from './WebhookSms';

/**
 * The SMS adapter the settings choose: SMS_PROVIDER (twilio or webhook), else files in
 * DATA_DIR/sms with SMS_TO_FILES, else none (SMS two-factor is not offered). loadConfig refuses
 * both at once, so at most one applies.
 */
export function createSms(config: Pick<Config, 'smsProvider' | 'smsToFiles' | 'dataDir'>): SmsPort | null {
  if (config.smsProvider?.provider === 'twilio') return new TwilioSms(config.smsProvider);
  if (config.smsProvider?.provider === 'webhook') return new WebhookSms(config.smsProvider);
  return config.smsToFiles ? new FileSms(path.join(config.dataDir, 'sms')) : null;
}
