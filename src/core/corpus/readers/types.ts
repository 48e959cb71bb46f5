import type { Diagnostic } from '../../util/diagnostics';
import type { Document } from '../document';
import type { CorpusSettings } from '../settings';

export interface ReaderContext {
  /** Path relative to the workspace root, POSIX slashes: used for ids and diagnostics. */
  path: string;
  settings: CorpusSettings;
  /** Collects the configured field names some record of the file has (see MappedRecord.seen). */
  fieldsSeen?: Set<string>;
}

export interface ReadResult {
  docs: Document[];
  diagnostics: Diagnostic[];
}

/** Turns the decoded text of one file into documents. Readers never throw on bad content: they report it. */
export type CorpusReader = (text: string, ctx: ReaderContext) => ReadResult;
