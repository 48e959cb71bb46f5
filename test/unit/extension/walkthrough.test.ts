// The walkthrough of package.json (contributes.walkthroughs) points at things that exist: its Markdown files (and
// the package keeps them), the Ranklab commands its links and completion events name, the context keys it waits for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
type Step = { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] };
const steps: Step[] = pkg.contributes.walkthroughs.flatMap((w: { steps: Step[] }) => w.steps);
const commands = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));

/** Every .ts file under src/extension, concatenated (to find where a context key is set). */
function extensionSource(dir = join(ROOT, 'src', 'extension')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) =>
      e.isDirectory() ? extensionSource(join(dir, e.name)) : e.name.endsWith('.ts') ? readFileSync(join(dir, e.name), 'utf8') : '',
    )
    .join('\n');
}

test('the walkthrough has the four steps, each with its Markdown file, shipped in the package', () => {
  assert.deepEqual(
    steps.map((s) => s.id),
    ['workspace', 'evaluate', 'dashboard', 'boost'],
  );
  const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
  // .vscodeignore drops **/*.md; a later "!" line must bring the walkthrough's back.
  const keep = ignore.lastIndexOf('!media/walkthrough/*.md');
  assert.ok(keep > ignore.indexOf('**/*.md'), '.vscodeignore keeps media/walkthrough/*.md');
  for (const s of steps) {
    assert.ok(s.media.markdown && existsSync(join(ROOT, s.media.markdown)), `${s.id}: ${s.media.markdown}`);
  }
});

test('every ranklab command a step links to or completes on is contributed; every context key waited for is set', () => {
  const source = extensionSource();
  for (const s of steps) {
    assert.ok(s.completionEvents?.length, `${s.id} has a completion event`);
    const linked = [...s.description.matchAll(/\(command:(ranklab\.[\w.]+)/g)].map((m) => m[1]);
    const onCommand = s.completionEvents!.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length));
    for (const id of [...linked, ...onCommand]) assert.ok(commands.has(id), `${s.id}: ${id} is not a contributed command`);
    for (const e of s.completionEvents!.filter((x) => x.startsWith('onContext:'))) {
      const key = e.slice('onContext:'.length);
      assert.ok(source.includes(`'setContext', '${key}', true`), `${s.id}: nothing sets the context key ${key}`);
    }
  }
});
