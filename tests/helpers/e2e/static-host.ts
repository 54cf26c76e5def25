// A static host for the split deploy's e2e test: it serves a built site by its generated rules (`_redirects`,
// `_headers`) and nothing else, as a CDN or a static host would. Usage: static-host.ts <siteDir> <port> [readyUrl];
// with a readyUrl it first waits until that answers (the API process builds the site before it listens).
import http from 'node:http';
import { openStaticSite } from '../../../server/site/static-site.ts';

const [siteDir, port, readyUrl] = process.argv.slice(2);
if (!siteDir || !port) throw new Error('Usage: static-host.ts <siteDir> <port> [readyUrl]');

if (readyUrl) {
  for (;;) {
    const ready = await fetch(readyUrl).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
const site = openStaticSite(siteDir);
if (!site.built) throw new Error(`No built site in ${siteDir}`);
http
  .createServer((request, response) => {
    if (site.answer(request, response) === null) site.notFound(request, response);
  })
  .listen(Number(port), '127.0.0.1');
