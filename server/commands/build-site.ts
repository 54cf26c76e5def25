// `npm run build`: builds the static site into SITE_DIR and stamps it, so `npm start` knows it is current.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import { ensureSiteBuilt } from '../site/build.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureSiteBuilt(root, loadConfig().siteDir, (message) => console.log(message), true);
