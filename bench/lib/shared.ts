// The benchmarks' ../shared folder (RANKLAB_SHARED overrides it): they read the real collections, the trec_eval
// sources and the real models from it. The tests never do (test/helpers/shared.ts: RANKLAB_COLLECTIONS only).
import { join, resolve } from 'node:path';

export const SHARED_DIR = process.env.RANKLAB_SHARED ?? resolve(__dirname, '../../../shared');
export const COLLECTIONS_DIR = join(SHARED_DIR, 'collections');
export const COLLECTIONS = ['adi', 'cacm', 'cisi', 'cranfield', 'lisa', 'med'];
