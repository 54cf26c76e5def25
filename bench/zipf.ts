// Zipf popularity for the benchmarks' simulated traffic and data.

/**
 * Draws indexes 0..n-1 with Zipf weights: index k is drawn about 1/(k+1)^s as often as index 0 (`random` in [0, 1)).
 */
export function zipfSampler(n: number, s: number, random: () => number = Math.random): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / Math.pow(k + 1, s);
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
