// Relative links of Markdown files and the headings they point at, as GitHub renders them: used by
// test/unit/docs/links.test.ts to hold README.md and docs/*.md to links that resolve.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/** One link that does not resolve, with where it is. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/**
 * GitHub's anchor for a heading (github-slugger): the text without link syntax, lower-cased, every character
 * that is not a letter, mark, number, connector, space or hyphen dropped, spaces turned into hyphens.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split(/\r?\n/).forEach((line, i) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) {
      if (fence === undefined) fence = open[1][0];
      else if (open[1][0] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** The anchors of a Markdown file's headings; a repeated heading gets -1, -2, … as on GitHub. */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]);
    const n = seen.get(base);
    seen.set(base, n === undefined ? 0 : n + 1);
    anchors.add(n === undefined ? base : `${base}-${n + 1}`);
  }
  return anchors;
}

/** Inline links and images `[text](target)` outside code, with their line. */
export function markdownLinks(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text: raw } of proseLines(text)) {
    // A code span is text, not a link: blank it out (its brackets too) before looking for links.
    const prose = raw.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (s) => 'x'.repeat(s.length));
    for (const m of prose.matchAll(/!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*<?([^()\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: m[1] });
    }
  }
  return links;
}

/** Every relative link of `file` whose file or `#anchor` does not exist; `root` only shortens the names. */
export function brokenLinks(file: string, root: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const name = relative(root, file);
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let set = anchorsOf.get(path);
    if (!set) anchorsOf.set(path, (set = headingAnchors(readFileSync(path, 'utf8'))));
    return set;
  };
  for (const { line, target } of markdownLinks(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const path = pathPart === '' ? file : resolve(dirname(file), pathPart);
    if (!existsSync(path)) {
      broken.push({ file: name, line, target, reason: `${relative(root, path)} does not exist` });
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(path).isDirectory() || !path.endsWith('.md')) {
      broken.push({ file: name, line, target, reason: `#${anchor} points into ${relative(root, path)}, which has no headings` });
    } else if (!anchors(path).has(anchor)) {
      broken.push({ file: name, line, target, reason: `${relative(root, path)} has no heading with the anchor #${anchor}` });
    }
  }
  return broken;
}
