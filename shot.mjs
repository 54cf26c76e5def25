import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
const base = 'http://127.0.0.1:4900';
const out = execFileSync('npx', ['tsx', 'server/cli.ts', 'code', 'Shooter'], {
  env: { ...process.env, DATA_DIR: '/tmp/cdata', OFFLINE_MODE: 'true', LOG_LEVEL: 'silent' },
  encoding: 'utf8',
});
const code = /: (\d{6})$/m.exec(out)[1];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
await context.addCookies([{ name: 'server_advert', value: '1', url: base }]);
const page = await context.newPage();
page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
await page.goto(base + '/account/login/minecraft');
await page.waitForTimeout(1500);
await page.getByLabel('Code').fill(code);
await page.getByRole('button', { name: 'Confirm identity' }).click();
await page.waitForURL(base + '/');
const steps = JSON.parse(process.argv[2]);
for (const step of steps) {
  await page.goto(base + step.path);
  await page.waitForTimeout(1500);
  for (const [label, value] of step.fill ?? []) await page.getByLabel(label, { exact: true }).fill(value);
  for (const [label, value] of step.select ?? []) await page.getByLabel(label, { exact: true }).selectOption(value);
  for (const [label, file] of step.files ?? []) await page.getByLabel(label, { exact: true }).setInputFiles(file);
  if (step.click) await page.getByRole('button', { name: step.click }).click();
  await page.waitForTimeout(step.wait ?? 3000);
  await page.screenshot({ path: step.out, fullPage: true });
  console.log('shot', step.out);
}
await browser.close();
