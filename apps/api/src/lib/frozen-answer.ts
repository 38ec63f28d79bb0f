/** Answers that frozenAnswer froze whole: nothing can change them, so their JSON text can be kept. */
const frozenAnswers = new WeakSet<object>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const field of Object.values(value)) deepFreeze(field);
}

/**
 * Freezes an answer whole (every nested object and array) and marks it, so that the response serializer
 * (plugins/serializer.ts) writes it once per route and then sends the same text: for answers a cache serves many
 * times (a cached earnings page took ~6 µs to write, each time). Changing it afterwards throws.
 */
export function frozenAnswer<T extends object>(answer: T): T {
  deepFreeze(answer);
  frozenAnswers.add(answer);
  return answer;
}

export const isFrozenAnswer = (value: object): boolean => frozenAnswers.has(value);
