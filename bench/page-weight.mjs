// Measures the gzipped JS and CSS each built page loads (following module imports) and checks the static pages' budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_JS_BYTES = 15 * 1024;
const BUDGETED_PAGES = ['/', '/help', '/legal', '/404'];
const BUDGETED_PREFIXES = ['/legal/'];
const REACT_MARKERS = ['react-dom', '__reactContainer', '__reactFiber'];
const JS_TYPES = ['', 'module', 'text/javascript', 'application/javascript'];
const ORIGIN = 'http://site.invalid';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const siteDir = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? process.env.SITE_DIR ?? 'dist');

// Size of a text or buffer once gzipped at level 9.
function gzipSize(content) {
  return zlib.gzipSync(content, { level: 9 }).length;
}

// Every .html file under a folder, as paths relative to it.
function htmlFiles(dir, prefix = '') {
  const found = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...htmlFiles(dir, relative));
    else if (entry.name.endsWith('.html')) found.push(relative);
  }
  return found.sort();
}

// The URL path a built file is served at: index.html → /, legal/rules.html → /legal/rules, a/index.html → /a/.
function pageUrl(file) {
  const withoutExt = '/' + file.replace(/\.html$/, '');
  if (withoutExt === '/index') return '/';
  return withoutExt.endsWith('/index') ? withoutExt.slice(0, -'index'.length) : withoutExt;
}

// The page path shown in the table and matched against the budget (no trailing slash except for /).
function displayPath(url) {
  return url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
}

// Whether a page is one of the static pages with a JS budget.
function isBudgeted(page) {
  return BUDGETED_PAGES.includes(page) || BUDGETED_PREFIXES.some((prefix) => page.startsWith(prefix));
}

// Turns the few HTML entities that can appear in attribute values back into characters.
function decodeEntities(text) {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

// The attributes of a start tag as a lower-cased name → value map (valueless attributes map to '').
function parseAttributes(tag) {
  const attributes = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  const inner = tag.replace(/^<[a-zA-Z-]+/, '').replace(/\/?>$/, '');
  for (const match of inner.matchAll(pattern)) {
    attributes[match[1].toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

// Resolves a URL found in a page or module against the URL of that page or module; null for other origins.
function resolveUrl(specifier, baseUrl) {
  const url = new URL(specifier, ORIGIN + baseUrl);
  return url.origin === ORIGIN ? url.pathname : null;
}

// The file in the site folder that serves a URL path.
function fileForUrl(urlPath) {
  return path.join(siteDir, decodeURIComponent(urlPath));
}

// The module specifiers a JS file imports: static (import/export … from, bare import) and dynamic (import("…")).
function moduleImports(code) {
  const staticPattern = /(?<![\w$.])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?(["'])([^"'\n]+?)\1/g;
  const dynamicPattern = /(?<![\w$.])import\s*\(\s*(["'`])([^"'`\n]+?)\1\s*\)/g;
  return {
    static: [...code.matchAll(staticPattern)].map((match) => match[2]),
    dynamic: [...code.matchAll(dynamicPattern)].map((match) => match[2]),
  };
}

// What a page references directly: external scripts, inline scripts, island URLs, stylesheets and inline styles.
function pageReferences(html) {
  const refs = { scripts: [], inlineScripts: [], stylesheets: [], inlineStyles: [] };
  for (const match of html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = parseAttributes(match[1]);
    if (!JS_TYPES.includes((attributes.type ?? '').toLowerCase())) continue;
    if (attributes.src) refs.scripts.push(attributes.src);
    else if (match[2].trim()) refs.inlineScripts.push(match[2]);
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const attributes = parseAttributes(match[0]);
    const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
    if (!attributes.href) continue;
    if (rel.includes('modulepreload') || (rel.includes('preload') && attributes.as === 'script'))
      refs.scripts.push(attributes.href);
    if (rel.includes('stylesheet')) refs.stylesheets.push(attributes.href);
  }
  for (const match of html.matchAll(/<astro-island\b[^>]*>/gi)) {
    const attributes = parseAttributes(match[0]);
    for (const name of ['component-url', 'renderer-url', 'before-hydration-url']) {
      if (attributes[name]) refs.scripts.push(attributes[name]);
    }
  }
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) {
    if (match[1].trim()) refs.inlineStyles.push(match[1]);
  }
  return refs;
}

// Loads a JS module and, transitively, its static imports into `loaded` (URL → info); records dynamic imports apart.
function loadModule(urlPath, loaded, dynamic, missing) {
  if (loaded.has(urlPath)) return;
  const file = fileForUrl(urlPath);
  if (!fs.existsSync(file)) {
    missing.add(urlPath);
    return;
  }
  const code = fs.readFileSync(file, 'utf8');
  loaded.set(urlPath, { bytes: Buffer.byteLength(code), gzip: gzipSize(code), react: hasReact(code) });
  followImports(code, urlPath, loaded, dynamic, missing);
}

// Follows the static imports of a piece of JS (loading them) and records its dynamic imports.
function followImports(code, baseUrl, loaded, dynamic, missing) {
  const imports = moduleImports(code);
  for (const specifier of imports.static) {
    const target = resolveUrl(specifier, baseUrl);
    if (target && fs.existsSync(fileForUrl(target))) loadModule(target, loaded, dynamic, missing);
  }
  for (const specifier of imports.dynamic) {
    const target = resolveUrl(specifier, baseUrl);
    if (target && fs.existsSync(fileForUrl(target))) dynamic.add(target);
  }
}

// Whether a piece of JS contains the React DOM client.
function hasReact(code) {
  return REACT_MARKERS.some((marker) => code.includes(marker));
}

// Measures one page: every JS module and stylesheet it loads, each counted once.
function measurePage(file) {
  const url = pageUrl(file);
  const page = displayPath(url);
  const html = fs.readFileSync(path.join(siteDir, file), 'utf8');
  const refs = pageReferences(html);
  const loaded = new Map();
  const dynamic = new Set();
  const missing = new Set();
  const external = [];

  for (const src of refs.scripts) {
    const target = resolveUrl(src, url);
    if (target) loadModule(target, loaded, dynamic, missing);
    else external.push(src);
  }
  const inline = refs.inlineScripts.map((code) => {
    followImports(code, url, loaded, dynamic, missing);
    return { bytes: Buffer.byteLength(code), gzip: gzipSize(code), react: hasReact(code) };
  });

  const css = new Map();
  for (const href of refs.stylesheets) {
    const target = resolveUrl(href, url);
    if (!target) external.push(href);
    else if (!fs.existsSync(fileForUrl(target))) missing.add(target);
    else {
      const content = fs.readFileSync(fileForUrl(target));
      css.set(target, { bytes: content.length, gzip: gzipSize(content) });
    }
  }
  const inlineCss = refs.inlineStyles.map((code) => gzipSize(code));

  for (const urlPath of loaded.keys()) dynamic.delete(urlPath);
  const jsGzip = sum([...loaded.values()].map((info) => info.gzip)) + sum(inline.map((info) => info.gzip));
  const react = [...loaded.values(), ...inline].some((info) => info.react);
  const budgeted = isBudgeted(page);
  const withinBudget = !budgeted || (!react && jsGzip <= BUDGET_JS_BYTES);
  return {
    page,
    file,
    jsGzip,
    cssGzip: sum([...css.values()].map((info) => info.gzip)) + sum(inlineCss),
    react,
    budgeted,
    withinBudget,
    scripts: [...loaded].map(([urlPath, info]) => ({ url: urlPath, ...info })),
    inlineScripts: inline,
    stylesheets: [...css].map(([urlPath, info]) => ({ url: urlPath, ...info })),
    inlineStyles: inlineCss.map((gzip) => ({ gzip })),
    dynamicImports: [...dynamic]
      .sort()
      .map((urlPath) => ({ url: urlPath, gzip: gzipSize(fs.readFileSync(fileForUrl(urlPath))) })),
    external,
    missing: [...missing],
  };
}

// The sum of a list of numbers.
function sum(numbers) {
  return numbers.reduce((total, value) => total + value, 0);
}

// A byte count as "12,345 B (12.1 KB)".
function formatBytes(bytes) {
  return `${bytes.toLocaleString('en-US')} B (${(bytes / 1024).toFixed(1)} KB)`;
}

// The verdict column: OK / OVER / – for pages without a budget.
function verdict(result) {
  if (!result.budgeted) return '– (no budget)';
  if (result.withinBudget) return 'OK';
  const reasons = [];
  if (result.react) reasons.push('ships React');
  if (result.jsGzip > BUDGET_JS_BYTES) reasons.push(`JS > ${formatBytes(BUDGET_JS_BYTES)}`);
  return `OVER: ${reasons.join(', ')}`;
}

// Prints rows as a Markdown table with padded columns.
function printTable(header, rows) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => '| ' + cells.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ') + ' |';
  console.log(line(header));
  console.log('| ' + widths.map((width) => '-'.repeat(width)).join(' | ') + ' |');
  for (const row of rows) console.log(line(row));
}

// Prints the human-readable report: pages, then the JS files and who loads them, then dynamic imports.
function printReport(results) {
  console.log(
    `Page weight of ${siteDir} (gzip -9; budget for static pages: no React, JS ≤ ${formatBytes(BUDGET_JS_BYTES)})\n`,
  );
  printTable(
    ['Page', 'JS files', 'JS gzip', 'CSS gzip', 'React', 'Budget'],
    results.map((r) => [
      r.page,
      r.scripts.length + r.inlineScripts.length,
      formatBytes(r.jsGzip),
      formatBytes(r.cssGzip),
      r.react ? 'yes' : 'no',
      verdict(r),
    ]),
  );

  const files = new Map();
  for (const r of results) {
    for (const script of [...r.scripts, ...r.stylesheets]) {
      const entry = files.get(script.url) ?? { ...script, pages: 0 };
      entry.pages += 1;
      files.set(script.url, entry);
    }
  }
  console.log('\nFiles loaded by pages (largest first):\n');
  printTable(
    ['File', 'Raw', 'Gzip', 'Pages', 'React DOM'],
    [...files]
      .sort((a, b) => b[1].gzip - a[1].gzip)
      .map(([url, info]) => [
        url,
        formatBytes(info.bytes),
        formatBytes(info.gzip),
        info.pages,
        info.react ? 'yes' : '',
      ]),
  );

  const dynamicRows = results.flatMap((r) => r.dynamicImports.map((d) => [r.page, d.url, formatBytes(d.gzip)]));
  console.log('\nDynamic imports (not counted above):' + (dynamicRows.length ? '\n' : ' none'));
  if (dynamicRows.length) printTable(['Page', 'File', 'Gzip'], dynamicRows);

  for (const r of results) {
    if (r.external.length) console.log(`\n${r.page}: external resources not measured: ${r.external.join(', ')}`);
    if (r.missing.length) console.log(`\n${r.page}: referenced but missing from the build: ${r.missing.join(', ')}`);
  }
  const failures = results.filter((r) => !r.withinBudget);
  console.log(
    failures.length ? `\n${failures.length} budgeted page(s) over budget.` : '\nAll budgeted pages are within budget.',
  );
}

// Measures every page, prints the report and sets the exit code.
function main() {
  if (!fs.existsSync(siteDir)) {
    console.error(`No built site at ${siteDir}: run \`npm run build\` first.`);
    process.exit(2);
  }
  const pages = htmlFiles(siteDir);
  if (pages.length === 0) {
    console.error(`No HTML pages under ${siteDir}.`);
    process.exit(2);
  }
  const results = pages.map(measurePage).sort((a, b) => a.page.localeCompare(b.page));
  if (asJson) console.log(JSON.stringify({ siteDir, budgetJsBytes: BUDGET_JS_BYTES, pages: results }, null, 2));
  else printReport(results);
  process.exitCode = results.some((r) => !r.withinBudget) ? 1 : 0;
}

main();
