// A copy of examples/food-search made slow by generated data (30,000 documents, 2,000 queries; fixed generator, no
// random seed) and reduced to two lexical configs: an evaluation long enough to watch its progress, cancel it, or
// use the editor while it runs (steps `progress` and `responsive`).
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log } from './driver.mjs';

export const SLOW_CONFIGS = ['baseline', 'title-boost-3'];
export const SLOW_QUERIES = 2000;

/** `queries`: how many queries in all (default SLOW_QUERIES). */
export function slowWorkspace(runDir, { queries: count = SLOW_QUERIES } = {}) {
  const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
  for (const f of fs.readdirSync(path.join(workspace, 'configs')))
    if (!SLOW_CONFIGS.includes(f.replace(/\.rank\.json$/, ''))) fs.rmSync(path.join(workspace, 'configs', f));
  // Long documents over the judged queries' words, every generated query three of those words (many documents
  // match each one).
  const golden = JSON.parse(fs.readFileSync(path.join(workspace, 'judgments/golden.json'), 'utf8'));
  const words = [...new Set(golden.flatMap((q) => q.query.split(/\s+/)))].sort();
  const queries = [...golden];
  for (let i = 0; queries.length < count; i++) {
    const like = golden[i % golden.length];
    queries.push({
      id: `gen${i}`,
      query: [i, i * 7 + 3, i * 13 + 5].map((k) => words[k % words.length]).join(' '),
      judgments: like.judgments,
      tags: ['generated'],
      split: like.split,
    });
  }
  fs.writeFileSync(path.join(workspace, 'judgments/golden.json'), JSON.stringify(queries));
  const docs = [];
  for (let d = 0; d < 30000; d++) {
    const text = Array.from({ length: 39 }, (_, k) => words[(d * (k + 1) * 31 + (k + 1) * 17) % words.length]).join(' ');
    docs.push(
      JSON.stringify({ id: `gen-doc-${d}`, title: `${words[d % words.length]} ${words[(d * 3) % words.length]}`, text, public: true }),
    );
  }
  fs.writeFileSync(path.join(workspace, 'data/generated.jsonl'), docs.join('\n') + '\n');
  return workspace;
}

/** The saved run files of a workspace. */
export function runFiles(workspace) {
  const runsDir = path.join(workspace, '.ranklab/runs');
  return fs.existsSync(runsDir) ? fs.readdirSync(runsDir).filter((f) => f.endsWith('.json.gz') || f.endsWith('.json')) : [];
}

/**
 * Palette → Run Evaluation → "No principal" → waits until the progress notification counts queries (`counting`,
 * a RegExp on its text; the texts seen on the way are logged). Returns the notification and its last text.
 */
export async function startEvaluation(vs, counting) {
  const page = vs.page;
  await vs.runCommand('Ranklab: Run Evaluation');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No principal' }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Ranklab: evaluating' }).first();
  await toast.waitFor({ timeout: 60000 });
  const textOf = async () =>
    (
      (await toast
        .locator('.notification-list-item-message')
        .textContent({ timeout: 5000 })
        .catch(() => '')) ?? ''
    ).trim();
  let text = '';
  const seen = new Set();
  for (let i = 0; i < 600 && !counting.test(text); i++) {
    text = await textOf();
    if (text && !seen.has(text)) {
      seen.add(text);
      if (seen.size <= 8) log('progress:', text);
    }
    await page.waitForTimeout(300);
  }
  return { toast, text, textOf };
}
