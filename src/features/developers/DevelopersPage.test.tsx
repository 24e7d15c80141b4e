/**
 * The Developers page as a user reads it (spec 002 sections 4, 5, 8 and 10; issue 24), rendered
 * to static markup with the real components and the theme: the key shown once after Generate or
 * Rotate, the usage with its delay note and the API reference; Configure enabled by the URL rule;
 * the delivery log's entries, empty state and 'See more', bodies kept as text.
 */
import { Accordion, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../domain/formatting';
import type { ApiKeyInfo } from '../../protocol/developers';
import { ApiKeyPanel } from './ApiKeyTab';
import { DEVELOPER_TEXTS } from './developerTexts';
import { webhookLog } from './testing';
import { ConfigureWebhookForm } from './WebhookTab';
import type { WebhookLogState } from './WebhookLogFeed';
import { WebhookLogEntry, WebhookLogList } from './WebhookLogList';

function render(node: ReactNode): string {
  return renderToStaticMarkup(<MantineProvider>{node}</MantineProvider>);
}

/** The words on screen: markup and styles dropped, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const KEY = `cairn_${'A'.repeat(40)}x9Zq`;
const info = (change: Partial<ApiKeyInfo> = {}): ApiKeyInfo => ({
  exists: true,
  hint: 'x9Zq',
  createdAt: Date.UTC(2026, 10, 20, 9, 0, 0),
  used: 37,
  total: 912,
  periodEndsAt: Date.UTC(2026, 11, 1, 0, 0, 0),
  usagePlan: { limit: 100, period: 'day' },
  ...change,
});
const noop = () => {};
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>[\s\S]*?<\/button>/g)].map((match) => match[0]);
const buttonNamed = (html: string, name: string) => buttons(html).find((button) => textOf(button) === name);

describe('API key tab', () => {
  it('offers Generate when there is no key, and Rotate when there is one', () => {
    const none = render(<ApiKeyPanel info={info({ exists: false, hint: null, createdAt: null, used: 0, total: 0 })} newKey={null} isBusy={false} onGenerate={noop} onRotate={noop} />);
    expect(buttonNamed(none, 'Generate')).toBeDefined();
    expect(buttonNamed(none, 'Rotate')).toBeUndefined();

    const one = render(<ApiKeyPanel info={info()} newKey={null} isBusy={false} onGenerate={noop} onRotate={noop} />);
    expect(buttonNamed(one, 'Rotate')).toBeDefined();
    expect(buttonNamed(one, 'Generate')).toBeUndefined();
    expect(textOf(one)).toContain('Your key ends in …x9Zq and was made on 20/11/2026');
  });

  it('shows a new key whole, with Copy and the note that it will not be shown again; afterwards only its last 4 characters', () => {
    const fresh = textOf(render(<ApiKeyPanel info={info()} newKey={KEY} isBusy={false} onGenerate={noop} onRotate={noop} />));
    expect(fresh).toContain(KEY);
    expect(fresh).toContain(DEVELOPER_TEXTS.keyShownOnce);
    expect(fresh).toContain('Copy');

    // The key's information as the server sends it later has no key in it: only the hint is shown.
    const later = textOf(render(<ApiKeyPanel info={info()} newKey={null} isBusy={false} onGenerate={noop} onRotate={noop} />));
    expect(later).not.toContain(KEY);
    expect(later).not.toContain(DEVELOPER_TEXTS.keyShownOnce);
  });

  it('shows usage this period against the limit, the total, when the period ends, and that figures lag about 15 minutes', () => {
    const text = textOf(render(<ApiKeyPanel info={info()} newKey={null} isBusy={false} onGenerate={noop} onRotate={noop} />));
    expect(text).toContain('37 of 100 requests used this period');
    expect(text).toContain('Requests in all: 912');
    expect(text).toContain(`A period lasts one day; the count starts again on ${formatDateTime(Date.UTC(2026, 11, 1))}`);
    expect(text).toContain('about 15 minutes');
  });

  it('links the API reference to the OpenAPI document in a new tab, and tells how to sign in with npx cairn login', () => {
    const html = render(<ApiKeyPanel info={info()} newKey={null} isBusy={false} onGenerate={noop} onRotate={noop} />);
    const link = html.match(/<a[^>]*>API reference<\/a>/)?.[0] ?? '';
    expect(link).toContain('href="/api/openapi.json"');
    expect(link).toContain('target="_blank"');
    expect(link).toContain('rel="noopener noreferrer"');
    expect(textOf(html)).toContain('npx cairn login');
    expect(textOf(html)).toContain('standard input');
  });
});

describe('Webhook tab: Configure (spec 002 section 5)', () => {
  const form = (url: string) => render(<ConfigureWebhookForm url={url} isBusy={false} onUrlChange={noop} onConfigure={noop} />);

  it('has a field labelled Webhook URL', () => {
    const html = form('');
    const id = html.match(/<input[^>]*id="([^"]+)"/)?.[1];
    expect(html).toMatch(new RegExp(`<label[^>]*for="${id}"[^>]*>Webhook URL`));
  });

  it('enables Configure only for a URL that starts with https:// and is longer than 8 characters', () => {
    expect(buttonNamed(form(''), 'Configure')).toContain('disabled');
    expect(buttonNamed(form('https://'), 'Configure')).toContain('disabled');
    expect(buttonNamed(form('http://receiver.example/hook'), 'Configure')).toContain('disabled');
    expect(buttonNamed(form('https://receiver.example/hook'), 'Configure')).not.toContain('disabled');
  });
});

describe('Webhook tab: delivery log (spec 002 sections 7, 8 and 10)', () => {
  const ready = (change: Partial<WebhookLogState>): WebhookLogState => ({ status: 'ready', items: [], nextToken: null, isLoadingMore: false, error: null, ...change });

  it('says so when nothing was delivered yet', () => {
    const text = textOf(render(<WebhookLogList state={ready({})} onSeeMore={noop} onRetry={noop} />));
    expect(text).toContain('No webhook deliveries yet');
    expect(text).not.toContain('See more');
  });

  it("shows each entry's event, time as DD/MM/YYYY HH:mm:ss, status with its code, and attempt", () => {
    const delivered = webhookLog(1, { createdAt: new Date(2026, 10, 28, 9, 5, 7).getTime() });
    const failed = webhookLog(2, { event: 'member.joined', deliveryStatus: false, responseStatusCode: 500, attempt: 3 });
    const unanswered = webhookLog(3, { deliveryStatus: false, responseStatusCode: null, responseBody: 'Timed out after 10 s' });
    const text = textOf(render(<WebhookLogList state={ready({ items: [delivered, failed, unanswered] })} onSeeMore={noop} onRetry={noop} />));
    expect(text).toContain('file.uploaded 28/11/2026 09:05:07 Delivered 200 Attempt 1');
    expect(text).toContain('member.joined');
    expect(text).toContain('Failed 500 Attempt 3');
    expect(text).toContain('Failed Attempt 1');
  });

  /** An entry opened, as a click on its summary does. */
  const opened = (log: ReturnType<typeof webhookLog>) =>
    render(
      <Accordion multiple defaultValue={[log.id]}>
        <WebhookLogEntry log={log} />
      </Accordion>,
    );

  it('opens an entry onto its request and response bodies, or what went wrong when no answer came', () => {
    const unanswered = webhookLog(3, { deliveryStatus: false, responseStatusCode: null, responseBody: 'Timed out after 10 s' });
    const text = textOf(opened(unanswered));
    expect(text).toContain(`Request body ${unanswered.requestBody}`);
    expect(text).toContain('Response body Timed out after 10 s');
  });

  it('keeps request and response bodies as text, never as markup', () => {
    const log = webhookLog(1, { responseBody: '<script>alert(1)</script><b>hi</b>' });
    const html = opened(log);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>hi');
    expect(textOf(html)).toContain('Response body <script>alert(1)</script><b>hi</b>');
  });

  it("offers 'See more' while there is a next page, and not at the end", () => {
    const items = Array.from({ length: 10 }, (_, i) => webhookLog(i));
    expect(buttonNamed(render(<WebhookLogList state={ready({ items, nextToken: '10' })} onSeeMore={noop} onRetry={noop} />), 'See more')).toBeDefined();
    expect(buttonNamed(render(<WebhookLogList state={ready({ items, nextToken: null })} onSeeMore={noop} onRetry={noop} />), 'See more')).toBeUndefined();
  });
});
