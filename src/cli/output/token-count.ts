// The one way a token count is shortened for people (`172k`, `4.9k`, `1.2M`): every line that
// reports a condense (`compacted: …`, `context … tokens`, the session's notice) uses it, so the
// same count never reads differently in two places.

/** Exact below 1,000; one decimal below 10k (and 10M), whole thousands (millions) above. */
export function formatTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1000) return String(n);
  const k = n / 1000;
  // Thresholds on the rounded figure, so 9,960 reads "10k", not "10.0k", and 999,600 "1M", not "1000k".
  if (k < 9.95) return `${oneDecimal(k)}k`;
  if (k < 999.5) return `${Math.round(k)}k`;
  const m = n / 1_000_000;
  if (m < 9.95) return `${oneDecimal(m)}M`;
  return `${Math.round(m)}M`;
}

/** `before → after`, the arrow every condense line uses. */
export function tokenChange(before: number, after: number): string {
  return `${formatTokens(before)} → ${formatTokens(after)}`;
}

function oneDecimal(x: number): string {
  // Rounded in integers: toFixed would round 4.95 down (binary fractions), and "5.0" reads as "5".
  const tenths = Math.round(x * 10);
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}
