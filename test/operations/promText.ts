/** One sample of a Prometheus text scrape: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments left out). */
export function parseProm(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const brace = line.indexOf('{');
    const space = line.lastIndexOf(' ');
    const name = brace >= 0 && brace < space ? line.slice(0, brace) : line.slice(0, space);
    const labels: Record<string, string> = {};
    if (brace >= 0 && brace < space) {
      // `a="x",b="y"`: our label values hold no quote or comma
      const inside = line.slice(brace + 1, line.lastIndexOf('}'));
      for (const pair of inside.split('",')) {
        const eq = pair.indexOf('="');
        if (eq > 0) labels[pair.slice(0, eq)] = pair.slice(eq + 2).replace(/"$/, '');
      }
    }
    samples.push({ name, labels, value: Number(line.slice(space + 1)) });
  }
  return samples;
}

/** The value of the one sample of `name` carrying `labels` (others may be there too); undefined when none. */
export function sampleOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
