/**
 * The Developers page's rules (spec 002 sections 5 and 8): when Configure is enabled, and which
 * text a failed action shows: the server's message, else the spec's words, verbatim.
 */
import { describe, expect, it } from 'vitest';
import { createWebhook, putApiKey, removeWebhook } from './developersApi';
import { canConfigureWebhook, DEVELOPER_TEXTS, failureText } from './developerTexts';
import { fakeDeveloperServer } from './testing';

describe('Configure (spec 002 section 5)', () => {
  it('is enabled for a URL that starts with https:// and is longer than 8 characters', () => {
    expect(canConfigureWebhook('https://receiver.example/hook')).toBe(true);
    expect(canConfigureWebhook('https://a')).toBe(true);
  });

  it('stays disabled for an empty field, https:// alone, or another scheme', () => {
    for (const url of ['', ' ', 'https://', 'https:/', 'http://receiver.example/hook', 'HTTPS://receiver.example', 'receiver.example', 'ftp://x.example']) {
      expect(canConfigureWebhook(url), url).toBe(false);
    }
  });

  it('ignores spaces around a pasted URL (they are trimmed before it is sent)', () => {
    expect(canConfigureWebhook('  https://receiver.example/hook \n')).toBe(true);
  });
});

describe('failure texts (spec 002 section 8)', () => {
  it("are the spec's words", () => {
    expect(DEVELOPER_TEXTS.apiKeyGenerateFailed).toBe('Error generating API Key');
    expect(DEVELOPER_TEXTS.webhookAddFailed).toBe('Error adding webhook');
    expect(DEVELOPER_TEXTS.webhookRemoveFailed).toBe('Error removing webhook');
  });

  it("show the server's message when it gives one", async () => {
    const server = fakeDeveloperServer([]);
    server.failNext = { status: 400, message: 'Webhook URLs may not point to a private address.' };
    const error = await createWebhook(server.api, 'https://10.0.0.1/hook').catch((e: unknown) => e);
    expect(failureText(error, DEVELOPER_TEXTS.webhookAddFailed)).toBe('Webhook URLs may not point to a private address.');
    expect(server.requests).toEqual(['POST /api/webhooks']);
  });

  it("show the spec's text when no server answered", async () => {
    const server = fakeDeveloperServer([]);
    server.isOffline = true;
    const generate = await putApiKey(server.api).catch((e: unknown) => e);
    expect(failureText(generate, DEVELOPER_TEXTS.apiKeyGenerateFailed)).toBe('Error generating API Key');
    const remove = await removeWebhook(server.api, 'hook-1').catch((e: unknown) => e);
    expect(failureText(remove, DEVELOPER_TEXTS.webhookRemoveFailed)).toBe('Error removing webhook');
    expect(server.requests).toEqual(['PUT /api/api-keys', 'DELETE /api/webhooks/hook-1']);
  });
});
