/**
 * JSON for an inline `<script>` element (JSON-LD): the characters that could end the element or
 * open a comment inside it (`<`, `>`, `&`) and the two line terminators JavaScript parsers once
 * rejected (U+2028, U+2029) become `\u` escapes. The value parses back unchanged.
 */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
