// Cuts text only between whole characters. Half of a surrogate pair (an emoji, say) is not valid
// Unicode: the model API rejects a request body holding one, and the session cannot go on. Every
// cut that shell output and the file tools make goes through here.

export const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
export const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** True when a cut at `index` (a UTF-16 index) would separate the two halves of a pair. */
export function splitsPair(text: string, index: number): boolean {
  return (
    index > 0 &&
    index < text.length &&
    isHighSurrogate(text.charCodeAt(index - 1)) &&
    isLowSurrogate(text.charCodeAt(index))
  );
}

/** `index`, or one less when it falls inside a pair: the cut keeps the character out. */
export function boundaryBefore(text: string, index: number): number {
  return splitsPair(text, index) ? index - 1 : index;
}

/**
 * `index`, or one more when it falls inside a pair. A low surrogate at 0 counts as the second
 * half of a pair already cut away (a rolling buffer's start), so it is skipped too.
 */
export function boundaryAfter(text: string, index: number): number {
  if (index === 0 && text.length > 0 && isLowSurrogate(text.charCodeAt(0))) return 1;
  return splitsPair(text, index) ? index + 1 : index;
}

/** At most `max` UTF-16 units from the start, never ending in half a pair. */
export function headUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, boundaryBefore(text, Math.max(0, max)));
}

/** At most `max` UTF-16 units from the end, never starting with half a pair. */
export function tailUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(boundaryAfter(text, text.length - Math.max(0, max)));
}

/** Characters (code points) in text[start, end): what a person would count. */
export function codePointCount(text: string, start = 0, end = text.length): number {
  let count = end - start;
  for (let i = start + 1; i < end; i++) {
    if (isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))) count--;
  }
  return count;
}

/** The UTF-16 index just after the first `n` code points (text.length when it has fewer). */
export function codePointIndex(text: string, n: number): number {
  let i = 0;
  for (let seen = 0; seen < n && i < text.length; seen++) {
    i += isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/** Last line of defence: any lone surrogate left becomes U+FFFD. */
export function wellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}
