import { createHash } from 'node:crypto';

/** A short content hash ("sha256:" + 16 hex digits) that names exactly which data a result was computed on. */
export function fingerprint(parts: Iterable<string | Buffer>): string {
  const h = createHash('sha256');
  for (const p of parts) {
    h.update(p);
    h.update('\u0000');
  }
  return 'sha256:' + h.digest('hex').slice(0, 16);
}
