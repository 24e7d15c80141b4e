import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { NetworkError, type ApiClient } from '../../platform/apiClient';
import { ApiError } from '../../protocol/errors';
import { transferSigningPayload } from '../../protocol/ledger';
import { ALREADY_SENT_TEXT, sendRefusalOf, sendTokens } from './sendTokens';

describe('sending $U (R108)', () => {
  it('signs exactly the fields it posts, amount in millionths, with the id it is given', async () => {
    const posted: unknown[] = [];
    const signed: unknown[] = [];
    const api = {
      post: async <S extends z.ZodType>(path: string, body: unknown): Promise<z.infer<S>> => {
        posted.push({ path, body });
        throw new ApiError('AMOUNT_EXCEEDS_BALANCE', 'Amount exceeds total balance.');
      },
    } as unknown as ApiClient;
    const signer = { signPayload: async (payload: unknown) => (signed.push(payload), 'sig') };
    const request = { id: 't-1', from: 'a'.repeat(43), fromKey: 'b'.repeat(64), to: 'c'.repeat(43), amount: 750_000n };
    await expect(sendTokens(api, signer, request)).rejects.toThrow('Amount exceeds total balance.');
    await expect(sendTokens(api, signer, { ...request, id: 't-2' })).rejects.toThrow();
    const [first, second] = posted as { path: string; body: Record<string, string> }[];
    expect(first!.path).toBe('/utoken/transfers');
    expect(first!.body).toMatchObject({ id: 't-1', from: request.from, fromKey: request.fromKey, to: request.to, amount: '750000', signature: 'sig' });
    expect(signed[0]).toEqual(transferSigningPayload(first!.body as never));
    expect(second!.body.id).toBe('t-2');
  });

  it("puts each refusal on the field it concerns, with the spec's texts", () => {
    expect(sendRefusalOf(new ApiError('AMOUNT_EXCEEDS_BALANCE', 'x'))).toEqual({ field: 'amount', text: 'Amount exceeds total balance.' });
    expect(sendRefusalOf(new ApiError('VALIDATION_FAILED', 'x', [{ path: 'to', message: 'x' }]))).toEqual({
      field: 'address',
      text: 'Incorrect format for an Arweave wallet address.',
    });
    expect(sendRefusalOf(new ApiError('BAD_REQUEST', 'No Cairn account has this address.'))).toEqual({ field: 'address', text: 'No Cairn account has this address.' });
    const notAllowed = 'Sending $U needs a paid plan or more than 100 MB of permanent storage.';
    expect(sendRefusalOf(new ApiError('TOKEN_SEND_NOT_ALLOWED', notAllowed))).toEqual({ field: 'form', text: notAllowed });
    expect(sendRefusalOf(new ApiError('RATE_LIMITED', 'x')).field).toBe('form');
    expect(sendRefusalOf(new NetworkError('offline')).text).toMatch(/offline/);
    // A retry whose first attempt went through (its answer lost): said so, not as a failure.
    expect(sendRefusalOf(new ApiError('CONFLICT', 'x'), true)).toEqual({ field: 'form', text: ALREADY_SENT_TEXT });
  });
});
