// docs/cli.md's `ranklab explain` section quotes each step's explanation as declared once in src/core/run/stages.ts
// (the dashboard shows the same words on the step's name): the steps, their order and their first sentence agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STEP_EXPLAINS, STEP_NAMES } from '../../../src/core/run/stages';
import { REPO_DIR } from '../../helpers/cli';

test('docs/cli.md lists every step of the stage table, in order, opening with its declared explanation', () => {
  const text = readFileSync(join(REPO_DIR, 'docs', 'cli.md'), 'utf8');
  const start = text.indexOf('asks every step of the pipeline\nwhy the document is where it is');
  assert.ok(start >= 0, 'the explain section of docs/cli.md');
  // The bullet list after that paragraph: `- **step**: text` with continuation lines indented by two spaces.
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('- **'));
  const bullets: { step: string; text: string }[] = [];
  for (const line of lines.slice(first)) {
    const m = /^- \*\*([^*]+)\*\*: (.*)$/.exec(line);
    if (m) bullets.push({ step: m[1], text: m[2] });
    else if (line.startsWith('  ') && bullets.length) bullets[bullets.length - 1].text += ' ' + line.trim();
    else break;
  }
  assert.deepEqual(
    bullets.map((b) => b.step),
    STEP_NAMES,
  );
  for (const b of bullets) {
    const plain = b.text.replace(/`/g, '');
    assert.ok(
      plain.startsWith(STEP_EXPLAINS[b.step as keyof typeof STEP_EXPLAINS]),
      `docs/cli.md "${b.step}" should open with: ${STEP_EXPLAINS[b.step as keyof typeof STEP_EXPLAINS]}\n  it reads: ${plain}`,
    );
  }
});
