// The tiny untrained test models (tiny-embedder/, tiny-reranker/), written by the project's own
// scripts/gen-tiny-models.mjs on first use into the git-ignored .models/, in a folder named after the generator's
// hash (a changed generator writes a new folder). Written into a temporary folder and renamed into place, so test
// files that start at the same time never see half a model: the first rename wins, the others drop their copy.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../../src/core/util/fingerprint';
import { REPO_DIR } from './cli';

export const TINY_MODELS_GENERATOR = join(REPO_DIR, 'scripts', 'gen-tiny-models.mjs');

/** The folder holding tiny-embedder/ and tiny-reranker/ (generated once; `root` defaults to the clone's .models/). */
export function tinyModelsDir(root = join(REPO_DIR, '.models')): string {
  const key = fingerprint([readFileSync(TINY_MODELS_GENERATOR)]).replace(/^sha256:/, '');
  const dir = join(root, `tiny-${key}`);
  if (existsSync(dir)) return dir;
  mkdirSync(root, { recursive: true });
  const tmp = mkdtempSync(join(root, '.tiny-tmp-'));
  try {
    execFileSync(process.execPath, [TINY_MODELS_GENERATOR, tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process renamed its complete copy into place first: use that one.
    if (!existsSync(dir)) throw e;
  }
  return dir;
}

/** Absolute folder of one tiny model. */
export const tinyModel = (name: 'tiny-embedder' | 'tiny-reranker'): string => join(tinyModelsDir(), name);
