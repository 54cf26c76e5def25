// The two checklists of docs/architecture.md ("add a creator", "add an admin page") are complete: every source file
// their model (the head capes creator, the AI cape logs page) appears in is named by the checklist, as itself, with
// the model's name as the placeholder (`server/routes/creators/<name>.ts`), or by its folder (`src/islands/admin/`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The folders a new creator or admin page touches (tests are named by the checklists' own test step). */
const SOURCE_FOLDERS = ['server', 'src', 'bench', 'scripts'];

/** The files under a folder, as repository paths. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.posix.join(folder, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const CHECKLISTS = [
  {
    heading: '## Checklist: add a creator',
    model: /headCape|head-cape|HeadCape|headCreatorRoutes|generator: 'head'/,
    placeholder: ['head', '<name>'],
    /** Files the model appears in that a new creator does not touch, and why. */
    incidental: {
      'src/islands/creators/creator-api.ts': "names the head creator's answer as the type every creator's answer has",
    },
  },
  {
    heading: '## Checklist: add an admin page',
    model: /aiCapeLogs|ai-cape-logs|AiCapeLogs|ai_cape_logs|AiLogReferences/,
    placeholder: ['ai-cape-logs', '<page>'],
    incidental: {
      'server/routes/creators/ai.ts': 'the AI cape creator writes the rows the model page lists',
    },
  },
] as const;

/** The text of one checklist: from its heading to the next heading. */
function checklistText(heading: string): string {
  const document = readFileSync('docs/architecture.md', 'utf8');
  const start = document.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const next = document.indexOf('\n## ', start + heading.length);
  return document.slice(start, next === -1 ? undefined : next);
}

describe('the checklists of docs/architecture.md', () => {
  const sources = SOURCE_FOLDERS.flatMap(filesUnder);

  it.each(CHECKLISTS)('$heading names every file its model touches', ({ heading, model, placeholder, incidental }) => {
    const text = checklistText(heading);
    const named = (file: string) =>
      text.includes(`\`${file}\``) ||
      text.includes(`\`${file.replaceAll(placeholder[0], placeholder[1])}\``) ||
      text.includes(`\`${path.posix.dirname(file)}/\``);
    const touched = sources.filter((file) => model.test(readFileSync(file, 'utf8')));
    expect(touched.length, 'the model is found').toBeGreaterThan(5);
    const unnamed = touched.filter((file) => !named(file) && !(file in incidental));
    expect(unnamed).toEqual([]);
  });
});
