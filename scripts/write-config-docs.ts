// Writes docs/configuration.md (npm run docs:config); a unit test fails while the committed file differs.
import { writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC, configurationMarkdown } from './config-docs.ts';

writeFileSync(CONFIGURATION_DOC, await configurationMarkdown());
console.log(`wrote ${CONFIGURATION_DOC}`);
