import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The read-only ../shared folder beside the project (tests and benchmarks only; the product never needs it). */
export const SHARED_DIR = process.env.RANKLAB_SHARED ?? resolve(__dirname, '../../../shared');
export const COLLECTIONS_DIR = join(SHARED_DIR, 'collections');
export const COLLECTIONS = ['adi', 'cacm', 'cisi', 'cranfield', 'lisa', 'med'];

export function requireShared(): void {
  if (!existsSync(COLLECTIONS_DIR)) throw new Error(`shared collections not found at ${COLLECTIONS_DIR}; set RANKLAB_SHARED`);
}
