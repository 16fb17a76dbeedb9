/** Link quality as a device derives it from its signal (monitoring-client: signal quality rules). */
export type LinkQuality = 'EXCELLENT' | 'GOOD' | 'AVERAGE' | 'LIMIT';

export function linkQualityOf(radio: string, signal: number | undefined): LinkQuality {
  if (signal === undefined) return 'GOOD'; // satellite radios report no signal level
  const [excellent, good, average] = radio === 'sigfox' ? [-100, -122, -135] : radio === 'wifi' ? [-50, -60, -70] : [20, 10, 5];
  if (signal > excellent) return 'EXCELLENT';
  if (signal > good) return 'GOOD';
  if (signal > average) return 'AVERAGE';
  return 'LIMIT';
}

/** A noisy reading around a radio's typical signal, kept inside what the radio can report. */
export function jitterSignal(radio: string, base: number | undefined, u: number): number | undefined {
  if (base === undefined) return undefined;
  if (radio === 'cellular') return Math.max(1, Math.min(31, Math.round(base + (u - 0.5) * 6)));
  return Math.round(base + (u - 0.5) * 10);
}
