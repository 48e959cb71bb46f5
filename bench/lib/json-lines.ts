// JSON Lines written in 4 MB batches (the generated corpora of the 1M benches are over 1 GB: one string per file
// would pass V8's string limit, a write per record is slow).
import { closeSync, openSync, writeSync } from 'node:fs';

const BATCH_CHARS = 4 * 2 ** 20;

/** Writes one JSON line per record to `file` (created or truncated); returns the bytes written. */
export function writeJsonLines(file: string, records: Iterable<unknown>): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    let batch = '';
    for (const r of records) {
      batch += `${JSON.stringify(r)}\n`;
      if (batch.length > BATCH_CHARS) {
        bytes += writeSync(fd, batch);
        batch = '';
      }
    }
    bytes += writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
  return bytes;
}
