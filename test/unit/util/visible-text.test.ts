import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortText, visibleMarked, visibleText } from '../../../src/core/util/visible-text';

test('every bidi control is shown as its code point, and nothing else changes', () => {
  const controls = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
  for (const cp of controls) {
    const hex = cp.toString(16).toUpperCase().padStart(4, '0');
    assert.equal(visibleText(`a${String.fromCodePoint(cp)}b`), `a⟨U+${hex}⟩b`, hex);
  }
  // Right-to-left letters, combining marks, emoji and the zero-width joiner are text, not controls.
  const plain = 'kopi ☕ قهوة שלום é 👩‍🍳 \u200d';
  assert.equal(visibleText(plain), plain);
  // No bidi control is left in the output of any string.
  const mixed = '\u202Etxt.exe\u202C \u2067x\u2069';
  assert.doesNotMatch(visibleText(mixed), /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  assert.equal(visibleText(mixed), '⟨U+202E⟩txt.exe⟨U+202C⟩ ⟨U+2067⟩x⟨U+2069⟩');
});

test('shortText: one line, cut with an ellipsis, never inside a surrogate pair or a marker', () => {
  assert.equal(shortText('  kopi\n\tgayo  '), 'kopi gayo');
  const long = 'word '.repeat(200);
  const cut = shortText(long, 60);
  assert.ok(cut.length <= 60, `${cut.length}`);
  assert.ok(cut.endsWith('…'));
  assert.ok(long.startsWith(cut.slice(0, -1)));
  // Exactly at the width: kept whole.
  assert.equal(shortText('x'.repeat(80)), 'x'.repeat(80));
  assert.equal(shortText('x'.repeat(81)), `${'x'.repeat(79)}…`);
  // An emoji across the cut is dropped whole rather than split.
  const emoji = shortText(`${'x'.repeat(78)}😀yy`);
  assert.equal(emoji, `${'x'.repeat(78)}…`);
  // A marker across the cut is dropped whole.
  const marked = shortText(`${'x'.repeat(75)}\u202Eabcdef`);
  assert.equal(marked, `${'x'.repeat(75)}…`);
  assert.equal(shortText('\u202Eabc'), '⟨U+202E⟩abc');
});

test('visibleMarked: highlighted ranges move with the text they cover', () => {
  const text = 'a\u202Ekopi gayo\u202C b';
  const marks: Array<[number, number]> = [
    [2, 6],
    [7, 11],
    [1, 2],
  ];
  const shown = visibleMarked(text, marks);
  assert.equal(shown.text, visibleText(text));
  const cover = (t: string, [s, e]: [number, number]) => t.slice(s, e);
  assert.equal(cover(shown.text, shown.marks[0]), 'kopi');
  assert.equal(cover(shown.text, shown.marks[1]), 'gayo');
  assert.equal(cover(shown.text, shown.marks[2]), '⟨U+202E⟩', 'a range over a control covers its marker');
  // Without controls nothing moves.
  assert.deepEqual(visibleMarked('kopi gayo', [[0, 4]]), { text: 'kopi gayo', marks: [[0, 4]] });
});

test('visibleMarked: an end past the text is clamped to it; an offset that is not one into the text is refused', () => {
  assert.deepEqual(visibleMarked('\u202Ekopi', [[1, 99]]).marks, [[8, 12]]);
  assert.throws(() => visibleMarked('kopi', [[-1, 2]]), /mark offset -1 is not an offset into the text/);
});
