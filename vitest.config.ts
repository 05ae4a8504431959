import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every test file builds its own app on its own database (SQLite file or PostgreSQL schema).
    fileParallelism: true,
    // Test files spend much of their time waiting (fsync, background loops, the browser, the
    // database server): one worker per core, where vitest's default leaves one core free (on two
    // cores, one file at a time). Measured on 2 cores: the SQLite suite in 6.1 min instead of 10.6.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // One Chromium for the run's browser tests (and the web app built when its sources changed).
    globalSetup: ['test/helpers/browser-server.ts'],
  },
});
