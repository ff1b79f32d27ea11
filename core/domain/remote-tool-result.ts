/**
 * Bounds a remote tool's result to a byte budget: what fits is passed on as received; otherwise structured content is
 * kept whole or dropped (a cut one would not match the tool's output schema), content items are kept in order while
 * they fit, the first text that does not fit is cut, and a last text item says what was left out.
 */
import type { RemoteCallResult } from '../ports/remote-mcp.ts';

export interface BoundedCallResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  /** The result was larger than the budget and was cut (the last content item says how). */
  truncated: boolean;
}

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
/** Room kept for the note and the JSON around the items. */
const reserve = 1024;

/** The longest prefix of `text` whose JSON string takes at most `budget` bytes (never half a surrogate pair). */
function cutText(text: string, budget: number): string {
  let keep = Math.min(text.length, budget);
  for (;;) {
    if (keep > 0 && /[\uD800-\uDBFF]/.test(text[keep - 1]!)) keep--;
    const size = bytesOf(text.slice(0, keep));
    if (size <= budget || keep === 0) return text.slice(0, keep);
    // Multi-byte characters and escapes take more than one byte each: shrink in proportion, then a little more.
    keep = Math.min(keep - 1, Math.floor((keep * budget) / size));
  }
}

const isText = (item: unknown): item is { type: 'text'; text: string } =>
  typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'text' && typeof (item as { text?: unknown }).text === 'string';

export function boundCallResult(result: RemoteCallResult, maxBytes: number): BoundedCallResult {
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? result.content : [];
  const whole: BoundedCallResult = { content, ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}), isError, truncated: false };
  const size = bytesOf(whole);
  if (size <= maxBytes) return whole;

  let budget = Math.max(0, maxBytes - reserve);
  const dropped: string[] = [];
  let structuredContent: Record<string, unknown> | undefined;
  if (result.structuredContent) {
    // Whole or not at all, and at most half the budget: the text content usually says the same for a model.
    const structuredBytes = bytesOf(result.structuredContent);
    if (structuredBytes <= budget / 2) {
      structuredContent = result.structuredContent;
      budget -= structuredBytes;
    } else dropped.push('structuredContent');
  }
  const kept: unknown[] = [];
  for (const [index, item] of content.entries()) {
    const itemBytes = bytesOf(item) + 1;
    if (itemBytes <= budget) {
      kept.push(item);
      budget -= itemBytes;
      continue;
    }
    if (isText(item)) {
      const text = cutText(item.text, budget - bytesOf({ ...item, text: '' }));
      if (text) kept.push({ ...item, text });
      dropped.push(text ? `the end of content item ${index + 1}` : `content item ${index + 1}`);
    } else dropped.push(`content item ${index + 1}`);
    if (index + 1 < content.length) dropped.push(`content items ${index + 2} to ${content.length}`);
    break;
  }
  kept.push({
    type: 'text',
    text: `[Loadplane cut this result: the server sent ${size} bytes and at most ${maxBytes} are passed on; left out: ${dropped.join(', ') || 'nothing but JSON overhead'}]`,
  });
  return { content: kept, ...(structuredContent ? { structuredContent } : {}), isError, truncated: true };
}
