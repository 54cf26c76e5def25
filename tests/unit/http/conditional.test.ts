// Unit tests for conditional GETs: every If-None-Match form of the shared table, If-None-Match before
// If-Modified-Since, and If-Modified-Since compared in whole seconds.
import { describe, expect, it } from 'vitest';
import { isNotModified, noneMatchNames } from '../../../server/http/conditional.ts';
import { noneMatchCases } from '../../helpers/validators.ts';

const ETAG = '"abc-123"';
const MODIFIED_MS = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const MODIFIED_HTTP_DATE = new Date(MODIFIED_MS).toUTCString();

describe('conditional GETs', () => {
  it.each(noneMatchCases(ETAG))('If-None-Match: $value gets $status', ({ value, status }) => {
    expect(noneMatchNames(value, ETAG)).toBe(status === 304);
    expect(isNotModified({ 'if-none-match': value }, ETAG, MODIFIED_MS)).toBe(status === 304);
  });

  it('reads a quoted tag that holds a comma as one tag', () => {
    expect(noneMatchNames('"a,b"', '"a,b"')).toBe(true);
    expect(noneMatchNames('"x", "a,b"', '"a,b"')).toBe(true);
    expect(noneMatchNames('"a", "b"', '"a,b"')).toBe(false);
  });

  it('answers If-Modified-Since in whole seconds, as the Last-Modified header carries the time', () => {
    expect(isNotModified({ 'if-modified-since': MODIFIED_HTTP_DATE }, ETAG, MODIFIED_MS)).toBe(true);
    expect(isNotModified({ 'if-modified-since': new Date(MODIFIED_MS - 1000).toUTCString() }, ETAG, MODIFIED_MS)).toBe(
      false,
    );
    expect(isNotModified({ 'if-modified-since': 'not a date' }, ETAG, MODIFIED_MS)).toBe(false);
    expect(isNotModified({ 'if-modified-since': MODIFIED_HTTP_DATE }, ETAG, null), 'no Last-Modified').toBe(false);
  });

  it('lets If-None-Match decide when both are sent', () => {
    expect(
      isNotModified({ 'if-none-match': '"other"', 'if-modified-since': MODIFIED_HTTP_DATE }, ETAG, MODIFIED_MS),
    ).toBe(false);
  });
});
