// The TEST_BACKENDS switch: which database backends the API tests run on.
import { describe, expect, it } from 'vitest';
import { selectBackends } from '../../../support/backends.ts';

const names = (setting: string | undefined) => selectBackends(setting).map((backend) => backend.name);

describe('TEST_BACKENDS', () => {
  it('runs both backends when unset or empty, as CI does', () => {
    expect(names(undefined)).toEqual(['sqlite', 'postgres']);
    expect(names('')).toEqual(['sqlite', 'postgres']);
    expect(names(' ')).toEqual(['sqlite', 'postgres']);
  });

  it('runs only the backend it names', () => {
    expect(names('sqlite')).toEqual(['sqlite']);
    expect(names('postgres')).toEqual(['postgres']);
    expect(names(' SQLite ')).toEqual(['sqlite']);
  });

  it('takes a comma-separated list, in the usual order', () => {
    expect(names('postgres,sqlite')).toEqual(['sqlite', 'postgres']);
    expect(names('sqlite, postgres')).toEqual(['sqlite', 'postgres']);
  });

  it('refuses a name it does not know', () => {
    expect(() => selectBackends('mysql')).toThrow(/TEST_BACKENDS names no backend called mysql/);
    expect(() => selectBackends('sqlite,pg')).toThrow(/called pg/);
  });
});
