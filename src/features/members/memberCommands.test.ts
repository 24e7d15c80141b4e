import { describe, expect, it } from 'vitest';
import { ApiError } from '../../protocol/errors';
import { OfflineError } from '../../sync/memberActions';
import { memberErrorText } from './memberCommands';

describe('memberErrorText', () => {
  it('shows the server\'s words for the hourly limit of invitation e-mails (429)', () => {
    const message = 'This person has been sent 3 invitation e-mails for this vault in the last hour, the most allowed. Please try again later.';
    expect(memberErrorText(new ApiError('RATE_LIMITED', message), 'sending the invitation')).toBe(message);
  });

  it('keeps the offline text and the generic failure text for the rest', () => {
    const offline = new OfflineError();
    expect(memberErrorText(offline, 'sending the invitation')).toBe(offline.message);
    expect(memberErrorText(new ApiError('INTERNAL', 'boom'), 'sending the invitation')).not.toContain('boom');
  });
});
