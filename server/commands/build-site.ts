// `npm run build`: builds the static site into SITE_DIR and stamps it, so `npm start` knows it is current; exits 1 when
// there is nothing to build or the build fails.
import { loadConfig } from '../config/index.ts';
import { buildSite, PROJECT_ROOT } from '../site/build.ts';

try {
  const config = loadConfig();
  buildSite(PROJECT_ROOT, config, (message) => console.log(message));
  console.log(`Built the site into ${config.siteDir}.`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
