/**
 * Similarity of two face descriptors, 0–1, with @vladmandic/human's `match.similarity` semantics
 * (Euclidean distance, multiplier 25, normalised from the 0.2–0.8 range), without its rounding to
 * two decimals. Measured on Human 3.3.6's faceres descriptors: the same person 0.95–1.0 across
 * crops, mirroring, ±8° rotation and ±20 % light, about 0.6 when heavily blurred; different people
 * 0.15–0.33. Human's docs read "above 0.5 can be considered a match".
 */
export function descriptorSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    sum += difference * difference;
  }
  const distance = Math.sqrt(25 * sum);
  const similarity = (1 - distance / 100 - 0.2) / (0.8 - 0.2);
  return Math.min(1, Math.max(0, similarity));
}

/**
 * The identity of several descriptors of one person: the mean of their directions, scaled back
 * to their mean length. Directions, so one photo with an unusually long descriptor does not pull
 * the mean; the original length, so the result compares with single descriptors on the same
 * scale (descriptorSimilarity is a distance, not a cosine).
 */
export function averageDescriptor(descriptors: readonly (readonly number[])[]): number[] {
  const usable = descriptors.filter((d) => d.length > 0 && d.length === descriptors[0]?.length);
  const first = usable[0];
  if (!first) return [];
  const sum = new Array<number>(first.length).fill(0);
  let meanLength = 0;
  for (const descriptor of usable) {
    const length = norm(descriptor);
    meanLength += length / usable.length;
    if (length === 0) continue;
    for (let i = 0; i < descriptor.length; i += 1) sum[i] = (sum[i] ?? 0) + (descriptor[i] ?? 0) / length;
  }
  const sumLength = norm(sum);
  if (sumLength === 0) return sum;
  return sum.map((value) => (value / sumLength) * meanLength);
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function norm(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value * value;
  return Math.sqrt(sum);
}
