import type client from 'prom-client';

/**
 * The hot path of the per-request HTTP metrics (a counter and a histogram labelled route,
 * method, status). prom-client's `inc` and `observe` build a series' key from its labels on
 * every call (both metrics, sorting, joining and validating the label names), a visible share
 * of a small read's CPU (bench/, read A). Here each series looks up, once, the objects
 * prom-client keeps its values in (the counter's `{ value }`, the histogram's `{ sum, count,
 * bucketValues }`) and adds to them as prom-client would: the values stay prom-client's own, so
 * every export (the text, the JSON the primary aggregates) is what prom-client writes.
 * A series whose objects prom-client replaced (a reset) goes through its API again and is
 * looked up anew; so does a value it would refuse (not finite), which then throws as it does.
 */
type HttpLabels = { route: string; method: string; status: string };

interface CounterValue {
  value: number;
  labels: Partial<HttpLabels>;
}
interface HistogramValue {
  sum: number;
  count: number;
  bucketValues: Record<string, number>;
  labels: Partial<HttpLabels>;
}
/** What prom-client 15 keeps of a metric's series (its `hashMap`, by label key). */
interface SeriesMap<V> {
  hashMap: Record<string, V>;
}

interface Series {
  labels: HttpLabels;
  counterKey: string;
  counter: CounterValue;
  histogramKey: string;
  histogram: HistogramValue;
}

function find<V extends { labels: Partial<HttpLabels> }>(hashMap: Record<string, V>, labels: HttpLabels): [string, V] | null {
  for (const key in hashMap) {
    const value = hashMap[key] as V;
    if (value.labels.route === labels.route && value.labels.method === labels.method && value.labels.status === labels.status) return [key, value];
  }
  return null;
}

export class HttpSeriesRecorder {
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();
  /** The histogram's bucket keys, as prom-client names its `bucketValues` (String(bound)). */
  private readonly bucketKeys: string[];

  constructor(
    private readonly counter: client.Counter<'route' | 'method' | 'status'>,
    private readonly histogram: client.Histogram<'route' | 'method' | 'status'>,
    private readonly buckets: readonly number[],
  ) {
    this.bucketKeys = buckets.map(String);
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    const series = byStatus.get(status);
    const counterMap = (this.counter as unknown as SeriesMap<CounterValue>).hashMap;
    const histogramMap = (this.histogram as unknown as SeriesMap<HistogramValue>).hashMap;
    if (series === undefined || counterMap[series.counterKey] !== series.counter || histogramMap[series.histogramKey] !== series.histogram || !Number.isFinite(seconds)) {
      const labels = series?.labels ?? { route, method, status: String(status) };
      this.counter.inc(labels);
      this.histogram.observe(labels, seconds);
      const counted = find((this.counter as unknown as SeriesMap<CounterValue>).hashMap, labels);
      const observed = find((this.histogram as unknown as SeriesMap<HistogramValue>).hashMap, labels);
      if (counted && observed) byStatus.set(status, { labels, counterKey: counted[0], counter: counted[1], histogramKey: observed[0], histogram: observed[1] });
      return;
    }
    series.counter.value += 1;
    const histogram = series.histogram;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      if (seconds <= (buckets[i] as number)) {
        const bucket = this.bucketKeys[i] as string;
        histogram.bucketValues[bucket] = (histogram.bucketValues[bucket] as number) + 1;
        break;
      }
    }
    histogram.sum += seconds;
    histogram.count += 1;
  }
}
