// html-to-text ships no type declarations; this covers the one function the corpus reader uses.
declare module 'html-to-text' {
  export function convert(html: string, options?: Record<string, unknown>): string;
}
