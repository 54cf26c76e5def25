// Unit test for the import layers: no import cycle and no import against the layers across server/ and src/
// (scripts/import-graph.ts).
import { describe, expect, it } from 'vitest';
import { importReport } from '../../scripts/import-graph.ts';

describe('imports run one way', () => {
  const report = importReport();

  it('reads the modules of server/ and src/', () => {
    expect(report.modules).toBeGreaterThan(200);
    expect(report.edges).toBeGreaterThan(500);
  });

  it('has no import cycle', () => {
    expect(report.cycles).toEqual([]);
  });

  it('has no upward import', () => {
    expect(report.upward).toEqual([]);
  });
});
