// Unit and API tests (Playwright runs the e2e tests separately). The suites that start a whole cluster (two server
// processes, nginx, PostgreSQL, Redis and S3) run last and one at a time: two clusters at once overload two cores.
import { defineConfig } from 'vitest/config';

const CLUSTER_SUITES = ['tests/api/scale-out/*.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
          exclude: CLUSTER_SUITES,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: { name: 'clusters', include: CLUSTER_SUITES, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
