// Accessibility checks in the browser: axe-core injected into the page, run with the WCAG 2.1 level A and AA rules.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

/** The axe-core build that runs in the page. */
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The rule tags a page must pass: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** One broken rule with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Runs axe-core on the page as it is now and returns the WCAG 2.1 AA violations. The page's Content-Security-Policy
 * refuses the injected script unless the context was opened with `bypassCSP: true`.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } };
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations;
  }, WCAG_21_AA_TAGS);
  return violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.join(' '),
      html: node.html,
      summary: node.failureSummary ?? '',
    })),
  }));
}

/** The violations as readable lines: each rule, then each element that breaks it and why. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact ?? 'no impact given'}): ${violation.help}`,
        ...violation.nodes.map(
          (node) => `  ${node.target}\n    ${node.html}\n    ${node.summary.replaceAll('\n', '\n    ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}
