/**
 * Text from a corpus or judgments as it is safe to show: the Unicode bidirectional controls are replaced by a
 * visible marker, and long texts are cut. Every face (CLI reports, quick picks and messages, the webviews through
 * the models the host sends them) shows corpus text through these two functions.
 */

/**
 * The bidi controls: LRE, RLE, PDF, LRO, RLO (U+202A–U+202E), LRI, RLI, FSI, PDI (U+2066–U+2069), LRM, RLM
 * (U+200E, U+200F) and ALM (U+061C). A right-to-left override in a title draws the rest of the line reversed,
 * and an isolate (`dir="auto"`) only keeps it from spilling over; it still reverses the title itself.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * `s` with every bidi control shown as its code point in angle brackets, e.g. "⟨U+202E⟩" (as code editors flag
 * them): the text is read in the order it is stored, and the marker says what was there. Other characters are kept.
 */
export function visibleText(s: string): string {
  return s.replace(BIDI_CONTROLS, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** `visibleText` of a text that may be absent (a document without a title). */
export function optionalVisible(s: string | undefined): string | undefined {
  return s === undefined ? undefined : visibleText(s);
}

/** Report width of a query text or title unless told: long enough to recognise, short enough for one line. */
export const SHORT_TEXT = 80;

/**
 * `visibleText(s)` on one line (runs of white space, line breaks included, become one space), cut to at most
 * `max` characters with an ellipsis. Cuts between code points, never inside a surrogate pair or a marker.
 */
export function shortText(s: string, max = SHORT_TEXT): string {
  const one = s.replace(/\s+/g, ' ').trim();
  const full = visibleText(one);
  if (full.length <= max) return full;
  let out = '';
  for (const c of one) {
    const shown = visibleText(c);
    if (out.length + shown.length > max - 1) break;
    out += shown;
  }
  return out.trimEnd() + '…';
}

/**
 * `visibleText` of a text with highlighted [start, end) ranges (UTF-16 offsets), the ranges moved with the text:
 * a range over a control covers its marker.
 */
export function visibleMarked(
  text: string,
  marks: ReadonlyArray<readonly [number, number]>,
): { text: string; marks: Array<[number, number]> } {
  // at[i] = where original offset i lands in the shown text (at[text.length] = its length).
  const at: number[] = [];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    at.push(out.length);
    const c = text.charAt(i);
    out += BIDI_ONE.test(c) ? visibleText(c) : c;
  }
  at.push(out.length);
  // Marks are offsets into the text (an end past it is clamped); anything else is a caller's bug.
  const moved = (offset: number): number => {
    const shown = at[Math.min(offset, text.length)];
    if (shown === undefined) throw new RangeError(`mark offset ${offset} is not an offset into the text`);
    return shown;
  };
  return { text: out, marks: marks.map(([s, e]) => [moved(s), moved(e)]) };
}

const BIDI_ONE = /^[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]$/;
