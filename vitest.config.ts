import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every test file builds its own app on its own database (SQLite file or PostgreSQL schema).
    fileParallelism: true,
    // One Chromium for the run's browser tests (and the web app built when its sources changed).
    globalSetup: ['test/helpers/browser-server.ts'],
  },
});
