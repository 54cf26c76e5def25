// Unit test for the import layers: no import cycle (between modules or between folders) and no import against the
// layers across server/ and src/ (scripts/import-graph.ts).
import { describe, expect, it } from 'vitest';
import { folderCyclesOf, importReport } from '../../../scripts/import-graph.ts';
import { importAllowed } from '../../../scripts/import-layers.mjs';

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

describe('folder cycles', () => {
  it('has none beyond the accepted ones', () => {
    expect(importReport().folderCycles).toEqual([]);
  });

  it('finds two folders that import each other through different files', () => {
    const edges = [
      { from: 'server/alpha/one.ts', to: 'server/beta/two.ts' },
      { from: 'server/beta/three.ts', to: 'server/alpha/four.ts' },
    ];
    expect(folderCyclesOf(edges)).toEqual([['server/alpha', 'server/beta']]);
  });

  it("counts a subfolder's files as their top folder's when the other side lies elsewhere", () => {
    const edges = [
      { from: 'server/textures/library/a.ts', to: 'server/image-jobs/queue.ts' },
      { from: 'server/image-jobs/catalogue.ts', to: 'server/textures/pipeline/b.ts' },
    ];
    expect(folderCyclesOf(edges)).toEqual([['server/image-jobs', 'server/textures']]);
  });

  it('finds a file beside a folder of its own name that imports it and is imported back', () => {
    const edges = [
      { from: 'server/config.ts', to: 'server/config/parsers.ts' },
      { from: 'server/config/variables.ts', to: 'server/config.ts' },
    ];
    expect(folderCyclesOf(edges)).toEqual([['server', 'server/config']]);
  });

  it('finds a longer loop, and none where imports run one way', () => {
    const loop = [
      { from: 'a/x.ts', to: 'b/x.ts' },
      { from: 'b/y.ts', to: 'c/x.ts' },
      { from: 'c/y.ts', to: 'a/y.ts' },
    ];
    expect(folderCyclesOf(loop)).toEqual([['a', 'b', 'c']]);
    expect(folderCyclesOf(loop.slice(0, 2))).toEqual([]);
  });

  it('leaves out an accepted cycle', () => {
    const edges = [
      { from: 'server/alpha/one.ts', to: 'server/beta/two.ts' },
      { from: 'server/beta/three.ts', to: 'server/alpha/four.ts' },
    ];
    expect(folderCyclesOf(edges, [['server/beta', 'server/alpha']])).toEqual([]);
  });
});

describe('the layers', () => {
  it('lets a feature import another only where it is listed as using it', () => {
    expect(importAllowed('server/admin/bans.ts', 'server/gallery/visibility.ts')).toBe(true);
    expect(importAllowed('server/gallery/items.ts', 'server/admin/bans.ts')).toBe(false);
    expect(importAllowed('server/mod/profiles.ts', 'server/premium/features.ts')).toBe(false);
  });

  it('keeps the texture core below the features and the generic image queue below the texture core', () => {
    expect(importAllowed('server/mod/layouts.ts', 'server/textures/image-work/image-jobs.ts')).toBe(true);
    expect(importAllowed('server/textures/library/assign.ts', 'server/gallery/items.ts')).toBe(false);
    expect(importAllowed('server/image-jobs/job-queue.ts', 'server/textures/pipeline/process.ts')).toBe(false);
  });

  it('keeps the image job queue from importing server/http/, while it reads the configuration', () => {
    expect(importAllowed('server/image-jobs/job-queue.ts', 'server/http/errors.ts')).toBe(false);
    expect(importAllowed('server/image-jobs/worker-pool.ts', 'server/http/multipart.ts')).toBe(false);
    expect(importAllowed('server/image-jobs/job-queue.ts', 'server/config/image-job-limits.ts')).toBe(true);
    expect(importAllowed('server/http/errors.ts', 'server/image-jobs/job-queue.ts')).toBe(true);
    expect(importAllowed('server/config/settings.ts', 'server/image-jobs/job-queue.ts')).toBe(false);
  });

  it("lets a route group's files import each other, never another group's", () => {
    expect(importAllowed('server/routes/admin/bans.ts', 'server/routes/admin/shared.ts')).toBe(true);
    expect(importAllowed('server/routes/admin/bans.ts', 'server/routes/creators/shared.ts')).toBe(false);
    expect(importAllowed('server/routes/gallery.ts', 'server/routes/upload.ts')).toBe(false);
  });
});
