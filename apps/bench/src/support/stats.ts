/** The spread of one measured quantity over the repetitions of a run. */
export interface Stat {
  median: number;
  min: number;
  max: number;
  /** Every repetition's value, in the order they were measured. */
  samples: number[];
}

/** Median (the mean of the middle two for an even count), min and max of the samples. */
export function summarize(samples: readonly number[]): Stat {
  if (samples.length === 0) throw new Error('summarize needs at least one sample');
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return {
    median,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    samples: [...samples],
  };
}

/**
 * Ratios of paired samples (`numerator[i] / denominator[i]`): both were measured in the
 * same repetition, so drift of a shared machine hits both alike.
 */
export function pairedRatios(numerator: readonly number[], denominator: readonly number[]): Stat {
  if (numerator.length !== denominator.length) {
    throw new Error(`cannot pair ${numerator.length} samples with ${denominator.length}`);
  }
  return summarize(numerator.map((value, index) => value / (denominator[index] as number)));
}

/** One variant of a benchmark: its name and how to measure one repetition of it. */
export type Variant<Name extends string, Sample> = readonly [
  name: Name,
  measure: (round: number) => Promise<Sample>,
];

/**
 * Runs `repetitions` rounds of every variant, interleaved: each round runs each variant
 * once, starting one variant later than the round before, so neither drift nor the
 * position in a round favours a variant. Returns each variant's samples in round order.
 */
export async function interleave<Name extends string, Sample>(
  repetitions: number,
  variants: ReadonlyArray<Variant<Name, Sample>>,
): Promise<Record<Name, Sample[]>> {
  const samples = Object.fromEntries(variants.map(([name]) => [name, [] as Sample[]])) as Record<
    Name,
    Sample[]
  >;
  for (let round = 0; round < repetitions; round += 1) {
    for (let offset = 0; offset < variants.length; offset += 1) {
      const [name, measure] = variants[(round + offset) % variants.length] as Variant<Name, Sample>;
      samples[name].push(await measure(round));
    }
  }
  return samples;
}
