import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesFile, generateApiTypes, SERVICES } from '../../scripts/api-types.js';

// The browser apps' API types are generated from the services' own OpenAPI documents and
// committed; a route schema changed without `npm run api-types` fails here.
describe('the generated API types (web/shared/api)', () => {
  it('equal a fresh generation from both services', async () => {
    const fresh = await generateApiTypes();
    for (const service of SERVICES) {
      const committed = fs.existsSync(apiTypesFile(service)) ? fs.readFileSync(apiTypesFile(service), 'utf8') : '';
      // Not toBe(): a megabyte diff helps nobody; the message says what to do.
      expect(committed === fresh[service], `web/shared/api/${service}.d.ts is stale: run npm run api-types`).toBe(true);
    }
  }, 120_000);
});
