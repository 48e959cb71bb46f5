// The noUncheckedIndexedAccess ratchet (part of `npm run lint`). Turning the option on for the whole tree at once
// gives about a thousand findings, and tsc reports the errors of every file a project imports, so a per-folder
// tsconfig cannot switch it on folder by folder. Instead this runs tsc with the option over src/ and webview/ (in the
// current directory), fails on any finding inside a COVERED folder (printing file:line:col), and prints one line
// with the count left elsewhere. The ratchet moves by fixing a folder and adding it to COVERED; it never shrinks.
// `--all` also lists the findings left elsewhere.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Folders (path prefixes from the repository root, with a trailing slash) where an unchecked indexed read fails lint. */
export const COVERED = [
  'src/core/acl/',
  'src/core/config/',
  'src/core/corpus/',
  'src/core/judgments/',
  'src/core/judging/',
  'src/core/workspace/',
  'src/core/actions/',
  'src/core/engines/',
  'src/core/metrics/',
  'src/core/report/',
  'src/core/session/',
  'src/core/run/',
  'src/core/experiment/',
  'src/protocol/',
  'src/cli/',
  'src/extension/',
  'webview/',
  'src/core/util/',
  'src/core/math/',
  'src/core/retrieval/',
  'src/core/tuning/',
];

const PROJECTS = ['src', 'webview'];
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// tsc --pretty false: `path(line,col): error TSnnnn: message`, continuation lines indented.
const DIAGNOSTIC = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/;

/** Runs tsc with the option over one project; returns its findings, or throws if tsc failed without any. */
function findings(project, cwd) {
  const r = spawnSync(process.execPath, [TSC, '-p', project, '--noEmit', '--pretty', 'false', '--noUncheckedIndexedAccess'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const found = [];
  let global = false; // an error without a file (a bad tsconfig, no inputs): the check itself is broken
  for (const line of r.stdout.split('\n')) {
    const m = DIAGNOSTIC.exec(line);
    if (m) found.push({ file: m[1].replaceAll('\\', '/'), line: Number(m[2]), col: Number(m[3]), code: m[4], message: m[5] });
    else if (/^error TS\d+/.test(line)) global = true;
  }
  if (global || (r.status !== 0 && found.length === 0)) {
    throw new Error(`tsc -p ${project} failed:\n${r.stdout}${r.stderr}${r.error ?? ''}`);
  }
  return found;
}

export function main(argv = process.argv.slice(2), cwd = process.cwd()) {
  const all = PROJECTS.flatMap((p) => findings(p, cwd));
  const covered = all.filter((f) => COVERED.some((dir) => f.file.startsWith(dir)));
  const elsewhere = all.filter((f) => !covered.includes(f));
  const show = (f) => `${f.file}:${f.line}:${f.col} ${f.code} ${f.message}`;
  for (const f of covered) console.error(show(f));
  if (argv.includes('--all')) for (const f of elsewhere) console.log(show(f));
  const files = new Set(elsewhere.map((f) => f.file)).size;
  console.log(
    `unchecked-index: ${covered.length} in the ${COVERED.length} covered folders; ${elsewhere.length} left elsewhere in ${files} files (--all lists them)`,
  );
  return covered.length === 0 ? 0 : 1;
}

// Run as a script (the test imports COVERED without running it).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
