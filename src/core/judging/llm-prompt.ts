/**
 * The LLM judge's prompt and how its answer is read. The template follows UMBRELA (Upadhyay, Pradeep, Thakur,
 * Craswell & Lin 2024, "UMBRELA: UMbrela is the (Open-Source Reproduction of the) Bing RELevance Assessor",
 * arXiv:2406.06519): the query, the passage, the 0–3 scale with a definition per grade, the steps a rater takes,
 * and one line `##final score: N` as the answer. It is written out in docs/judging.md ("The LLM judge") and its id and hash
 * are stored with every grade, so a changed template never passes for the old one.
 */
import { createHash } from 'node:crypto';

export const PROMPT_TEMPLATE_ID = 'ranklab-umbrela-v1';

/** The scale, as the prompt states it (the judging view's buttons say the same in short). */
export const SCALE: ReadonlyArray<string> = [
  '0 = the passage has nothing to do with the query',
  '1 = the passage is related to the query but does not answer it',
  '2 = the passage answers the query in part, or the answer is unclear or buried in other information',
  '3 = the passage is dedicated to the query and contains the exact answer',
];

export function buildPrompt(query: string, passage: string): string {
  return [
    'You judge search results. Given a query and a passage, give the passage a grade on an integer scale from 0 to 3:',
    ...SCALE,
    '',
    'Use 1 when the passage is about the topic but not about what the query asks, 2 when it answers the query along with other material, and 3 when it is entirely about what the query asks. If none of these fits, use 0.',
    '',
    `Query: ${query}`,
    `Passage: ${passage}`,
    '',
    'Work through it in steps: consider the intent behind the query; judge how well the passage matches that intent (M); judge how trustworthy the passage is (T); weigh both and decide the final grade (O), an integer.',
    'Answer with one line in the format "##final score: N" and nothing else: no reasoning, no code.',
  ].join('\n');
}

/** sha256 of what was asked: template, model and the full prompt text (the cache key and the audit trail). */
export function promptHash(model: string, prompt: string): string {
  return 'sha256:' + createHash('sha256').update(`${PROMPT_TEMPLATE_ID}\u0000${model}\u0000${prompt}`).digest('hex');
}

/**
 * The grade in an answer: the last `##final score: N` (N in 0–3), or an answer that is only a digit 0–3.
 * Anything else is not a grade (undefined): it is asked again, then reported, never guessed.
 */
export function gradeOfAnswer(answer: string): number | undefined {
  const marked = [...answer.matchAll(/#+\s*final\s+score\s*[:=]\s*\**\s*(\d+)\b/gi)];
  const last = marked[marked.length - 1];
  const value = last ? Number(last[1]) : /^\s*\**\s*([0-3])\s*\**\s*$/.test(answer) ? Number(answer.trim().replace(/\*/g, '')) : undefined;
  return value !== undefined && value >= 0 && value <= 3 ? value : undefined;
}

/** A rough token count for --dry-run: about four characters a token (English text, BPE tokenizers). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
