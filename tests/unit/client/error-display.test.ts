// Unit tests for the shared error display: every message is shown as text (never parsed as HTML), and a message's link
// is a real link.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { describeApiError, type ErrorDisplay as ErrorDisplayValue } from '../../../src/lib/client/api-errors';
import { COMPRESS_URL, textureMessages } from '../../../src/lib/texture-rules';
import { ErrorDisplay } from '../../../src/islands/shared/ErrorDisplay';
import { textureMessageDisplay } from '../../../src/islands/shared/texture-files';

function render(error: ErrorDisplayValue): string {
  return renderToStaticMarkup(createElement(ErrorDisplay, { error }));
}

describe('ErrorDisplay', () => {
  it('shows a message from the server as text, markup and all', () => {
    const html = render(
      describeApiError({ error: '<img src=x onerror=alert(1)><a href="https://evil.example">Log in again</a>' }),
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<a ');
    expect(html).toContain(
      '&lt;img src=x onerror=alert(1)&gt;&lt;a href=&quot;https://evil.example&quot;&gt;Log in again&lt;/a&gt;',
    );
  });

  it('shows field messages as text', () => {
    const html = render(describeApiError({ message: 'x', errors: { title: ['<b>bold</b>'] } }));
    expect(html).toContain('<li>&lt;b&gt;bold&lt;/b&gt;</li>');
  });

  it('shows a "too big" message with a real link to the compression site', () => {
    const html = render(textureMessageDisplay(textureMessages.capeTooBig));
    expect(html).toContain(`<strong>Error:</strong> ${textureMessages.capeTooBig}`);
    expect(html).toContain(
      `<a href="${COMPRESS_URL}" target="_blank" rel="noopener noreferrer" class="underline">Compress it here</a>.`,
    );
  });
});
