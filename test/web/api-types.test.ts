import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { committed, generateApiFiles } from '../../scripts/api-types.js';

// The services' OpenAPI documents (docs/openapi) and the browser apps' API types generated from
// them (web/shared/api) are committed; a route schema changed without `npm run api-types` fails
// here, and the change of the API then shows in the review of the regenerated documents.
describe('the committed API documents and types', () => {
  it('equal a fresh generation from both services', async () => {
    for (const { file, text } of await generateApiFiles()) {
      const name = path.relative(process.cwd(), file);
      // Not toBe(): a megabyte diff helps nobody; the message says what to do.
      expect(committed(file) === text, `${name} is stale: run npm run api-types`).toBe(true);
    }
  }, 120_000);
});
