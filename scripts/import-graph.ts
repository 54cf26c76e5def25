// Counts the import cycles (between modules, and between folders through any of their files) and the imports against
// the layers (scripts/import-layers.mjs) across server/ and src/, and prints each with the offending modules or
// imports. `npx tsx scripts/import-graph.ts` (exits 1 when any count is above zero).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importAllowed } from './import-layers.mjs';

/** The repository root. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The folders whose modules are counted, and the file endings that are modules. */
const SOURCE_FOLDERS = ['server', 'src'];
const MODULE_FILE = /\.(ts|tsx|mts|js|mjs|astro)$/;
/** Folder cycles left as they are for now (none): no other may appear. Each is the sorted list of its folders. */
export const ACCEPTED_FOLDER_CYCLES: string[][] = [];

/** Static (`import … from`, `export … from`, bare `import`) and dynamic (`import(…)`) specifiers. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** An import of one module by another, as repository paths. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** What the graph holds against the rules. */
export interface ImportReport {
  modules: number;
  edges: number;
  /** Each cycle: the modules of one strongly connected component of more than one module. */
  cycles: string[][];
  /**
   * Each folder cycle: the folders of one strongly connected component of more than one folder (a module's folder is
   * its directory).
   */
  folderCycles: string[][];
  upward: ImportEdge[];
}

/** Every module file under a folder, as repository paths. */
function moduleFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) files.push(...moduleFiles(relative));
    else if (MODULE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative);
  }
  return files;
}

/** The relative imports of one module, resolved to repository paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const targets = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1]!;
    if (!specifier.startsWith('.')) continue;
    targets.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
  }
  return [...targets];
}

/** The strongly connected components of more than one module (Tarjan's algorithm), each a cycle of imports. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * The two folders an import joins: below the deepest folder both modules share, the folder each module lies in (a
 * module directly in the shared folder stands for the shared folder itself). `server/textures/library/a.ts` importing
 * `server/image-jobs/b.ts` joins `server/textures` to `server/image-jobs`; `server/config.ts` importing `server/config/c.ts`
 * joins `server` to `server/config`.
 */
function foldersJoined({ from, to }: ImportEdge): [string, string] {
  const [a, b] = [from.split('/').slice(0, -1), to.split('/').slice(0, -1)];
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  return [a.slice(0, shared + 1).join('/'), b.slice(0, shared + 1).join('/')];
}

/**
 * The cycles between folders that the imports make (folder A imports from folder B through any of their files and B
 * from A, directly or round a longer loop), leaving out those in `accepted`.
 */
export function folderCyclesOf(edges: ImportEdge[], accepted: string[][] = []): string[][] {
  const graph = new Map<string, string[]>();
  for (const edge of edges) {
    const [a, b] = foldersJoined(edge);
    if (!graph.has(b)) graph.set(b, []);
    const targets = graph.get(a) ?? [];
    if (a !== b && !targets.includes(b)) targets.push(b);
    graph.set(a, targets);
  }
  const known = new Set(accepted.map((cycle) => [...cycle].sort().join(' ')));
  return cyclesOf(graph).filter((cycle) => !known.has(cycle.join(' ')));
}

/** Reads every module under server/ and src/ and judges its imports. */
export function importReport(): ImportReport {
  const files = SOURCE_FOLDERS.flatMap(moduleFiles);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
  const upward = edges.filter((edge) => !importAllowed(edge.from, edge.to));
  return {
    modules: files.length,
    edges: edges.length,
    cycles: cyclesOf(graph),
    folderCycles: folderCyclesOf(edges, ACCEPTED_FOLDER_CYCLES),
    upward,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = importReport();
  console.log(`${report.modules} modules, ${report.edges} imports`);
  console.log(`import cycles: ${report.cycles.length}`);
  for (const cycle of report.cycles) console.log(`  ${cycle.join(' ↔ ')}`);
  console.log(`folder cycles: ${report.folderCycles.length}`);
  for (const cycle of report.folderCycles) console.log(`  ${cycle.join(' ↔ ')}`);
  console.log(`upward imports: ${report.upward.length}`);
  for (const edge of report.upward) console.log(`  ${edge.from} → ${edge.to}`);
  if (report.cycles.length > 0 || report.folderCycles.length > 0 || report.upward.length > 0) process.exitCode = 1;
}
