/**
 * One grade set, changed or removed in the text of a golden set (a JSON array of items, one object, or JSONL),
 * touching nothing else. Positions come from jsonc-parser's syntax tree; the new text copies the file's own
 * separators (the line end and indentation between an object's members, `": "` or `":"`), so a graded
 * `judgments` object gets its new member on a line indented like its neighbours and a compact file stays compact.
 * - graded item (`"judgments": {doc: grade}`): the member is added, its value replaced, or the member removed;
 * - binary item (`"relevant_doc_ids": [...]`): grade 1 is appended to the list; any other grade goes into a
 *   `judgments` object (added to the item if it has none), and a listed document that gets another grade moves there.
 * The item is found as the reader finds it: its `id`, else `q<position>`; among items with that id the first one
 * holding the document wins (the reader keeps the first grade it reads).
 */
import { type Node, type ParseError, parseTree } from 'jsonc-parser';
import { InputError } from '../util/diagnostics';
import { type TextEdit, rawLines } from './text-edit';

interface Item {
  node: Node;
  id: string;
  /** The text the node's offsets point into (the whole file, or one JSONL line) and where it starts in the file. */
  text: string;
  base: number;
}

/**
 * The edits (applied from the last to the first) that give (qid, docId) the grade `grade` in a golden set's text
 * (without BOM), or remove its judgment when `grade` is undefined. Empty when nothing changes. Throws InputError
 * when the file cannot be parsed or has no item for the query.
 */
export function goldenEdits(text: string, file: string, qid: string, docId: string, grade: number | undefined): TextEdit[] {
  const items = goldenItems(text, file).filter((i) => i.id === qid);
  if (items.length === 0) throw new InputError(`${file}: no golden-set item for query "${qid}"`);
  const found = existingEdits(items, docId, grade);
  if (found) return found;
  if (grade === undefined) return [];
  const { node: item, text: itemText, base } = items[0]!;
  return shifted(newEdits(itemText, item, docId, grade), base);
}

const shifted = (edits: TextEdit[], base: number): TextEdit[] => edits.map((e) => ({ ...e, offset: e.offset + base }));

/** The edits for a document the items already judge; undefined when none does. */
function existingEdits(items: Item[], docId: string, grade: number | undefined): TextEdit[] | undefined {
  for (const { node, text, base } of items) {
    const done = (edits: TextEdit[]) => shifted(edits, base);
    for (const prop of members(node)) {
      const key = prop.children![0]!.value as string;
      const value = prop.children![1]!;
      if (key === 'judgments' && value.type === 'object') {
        const member = members(value).find((m) => m.children![0]!.value === docId && m.children![1]!.type === 'number');
        if (!member) continue;
        const current = member.children![1]!;
        if (grade === undefined) return done([removeChild(value, member)]);
        if (current.value === grade) return [];
        return done([{ offset: current.offset, length: current.length, content: String(grade) }]);
      }
      if (key === 'relevant_doc_ids' && value.type === 'array') {
        const element = (value.children ?? []).find((e) => idOf(e) === docId);
        if (!element) continue;
        if (grade === 1) return [];
        const removal = removeChild(value, element);
        return done(grade === undefined ? [removal] : [...addGraded(text, node, docId, grade), removal]);
      }
    }
  }
  return undefined;
}

/** A document no item judges yet goes into the first item for the query. */
function newEdits(text: string, item: Node, docId: string, grade: number): TextEdit[] {
  const listed = members(item).find((p) => p.children![0]!.value === 'relevant_doc_ids' && p.children![1]!.type === 'array');
  const hasGraded = members(item).some((p) => p.children![0]!.value === 'judgments' && p.children![1]!.type === 'object');
  if (grade === 1 && listed && !hasGraded) return [insertChild(text, listed.children![1]!, JSON.stringify(docId), item)];
  return addGraded(text, item, docId, grade);
}

/** The item's `judgments` object gets the member; an item without one gets `"judgments": {doc: grade}`. */
function addGraded(text: string, item: Node, docId: string, grade: number): TextEdit[] {
  const graded = members(item).find((p) => p.children![0]!.value === 'judgments' && p.children![1]!.type === 'object');
  const kv = keyValueSeparator(text, ...(graded ? [graded.children![1]!] : []), item);
  if (graded) return [insertChild(text, graded.children![1]!, `${JSON.stringify(docId)}${kv}${grade}`, item)];
  const inner = `${JSON.stringify(docId)}${kv}${grade}`;
  return [insertChild(text, item, `"judgments"${kv}{${inner}}`, item)];
}

/** Items in reading order with the id the reader gives them. */
function goldenItems(text: string, file: string): Item[] {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (!/\.jsonl$/i.test(file) && errors.length === 0 && root) {
    const nodes = root.type === 'array' ? (root.children ?? []) : [root];
    return nodes.map((node, i) => ({ node, id: itemId(node, i + 1), text, base: 0 })).filter((i) => i.node.type === 'object');
  }
  // JSONL (also a .json file of one-object lines, as the reader accepts): one item per non-blank line.
  const items: Item[] = [];
  let position = 0;
  for (const line of rawLines(text)) {
    if (line.text.trim() === '') continue;
    position++;
    const lineErrors: ParseError[] = [];
    const node = parseTree(line.text, lineErrors, { disallowComments: true, allowTrailingComma: false });
    if (lineErrors.length || !node || node.type !== 'object') continue;
    items.push({ node, id: itemId(node, position), text: line.text, base: line.offset });
  }
  if (items.length === 0 && errors.length) {
    const line = text.slice(0, errors[0]!.offset).split('\n').length;
    throw new InputError(`${file}:${line}: cannot write a grade: the file is not valid JSON here`);
  }
  return items;
}

function itemId(node: Node, position: number): string {
  const idProp = node.type === 'object' ? members(node).find((p) => p.children![0]!.value === 'id') : undefined;
  const v: unknown = idProp?.children![1]!.value;
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return `q${position}`;
}

function idOf(e: Node): string | undefined {
  if (e.type === 'string' && (e.value as string).trim() !== '') return (e.value as string).trim();
  if (e.type === 'number' && Number.isInteger(e.value)) return String(e.value);
  return undefined;
}

const members = (n: Node): Node[] => (n.type === 'object' ? (n.children ?? []) : []);
const end = (n: Node): number => n.offset + n.length;

/**
 * Appends `member` to an object's or array's children, separated as the last two are (`,\n      ` or `, `); with
 * one child, as the container sets it apart from its opening bracket; with none, right after the bracket.
 */
function insertChild(text: string, container: Node, member: string, styleFrom: Node): TextEdit {
  const children = container.children ?? [];
  const last = children[children.length - 1];
  if (!last) return { offset: container.offset + 1, length: 0, content: member };
  let separator: string;
  if (children.length >= 2) separator = text.slice(end(children[children.length - 2]!), last.offset);
  else {
    const lead = text.slice(container.offset + 1, last.offset);
    separator = /[\r\n]/.test(lead) ? `,${lead}` : keyValueSeparator(text, container, styleFrom).endsWith(' ') ? ', ' : ',';
  }
  return { offset: end(last), length: 0, content: separator + member };
}

/** Removes one child and one separator, the exact inverse of `insertChild` for the last one. */
function removeChild(container: Node, child: Node): TextEdit {
  const children = container.children ?? [];
  const i = children.indexOf(child);
  if (children.length === 1) return { offset: child.offset, length: child.length, content: '' };
  if (i === children.length - 1) {
    const from = end(children[i - 1]!);
    return { offset: from, length: end(child) - from, content: '' };
  }
  return { offset: child.offset, length: children[i + 1]!.offset - child.offset, content: '' };
}

/** What stands between a key and its value (`": "` or `":"`) in the first of these objects that has a member. */
function keyValueSeparator(text: string, ...objects: Node[]): string {
  const prop = objects.map((o) => members(o)[0]).find((p) => p !== undefined);
  return prop ? text.slice(end(prop.children![0]!), prop.children![1]!.offset) : ': ';
}
