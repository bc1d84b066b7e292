/** Daily views, unique viewers and egress of the stream over a chosen range, as charts. */
import { useState } from 'react';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import { Chart } from '../../ui/chart';
import { Empty, ErrorBox, Loading } from '../../ui/states';

const AnalyticsDocument = graphql(`
  query StreamAnalytics($streamId: ID!, $timeRange: TimeRangeInput!) {
    analytics {
      usage {
        streaming {
          streamAnalyticsDailyConnection(streamId: $streamId, timeRange: $timeRange, page: { first: 366 }) {
            nodes { day totalViews uniqueViewers egressBytes peakConcurrentViewers }
          }
        }
      }
    }
  }
`);

/** Bytes as KB/MB/GB. */
function bytes(value: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = value;
  let unit = 0;
  while (v >= 1000 && unit < units.length - 1) {
    v /= 1000;
    unit++;
  }
  return `${v.toFixed(v < 10 && unit > 0 ? 1 : 0)} ${units[unit]}`;
}

/** The UTC day range ending today, `days` long. */
function range(days: number): { start: string; end: string } {
  const end = new Date();
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  return { start: `${start.toISOString().slice(0, 10)}T00:00:00Z`, end: end.toISOString() };
}

type Day = {
  readonly day: string;
  readonly totalViews: number;
  readonly uniqueViewers: number;
  readonly egressBytes: number;
};

/** Every UTC day of the range (the API lists only days with viewers), zeros where it has none. */
function everyDay(nodes: readonly Day[], start: string, days: number): Day[] {
  const byDay = new Map(nodes.map((node) => [node.day.slice(0, 10), node]));
  const first = Date.parse(start);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, totalViews: 0, uniqueViewers: 0, egressBytes: 0 };
  });
}

/** The panel. */
export function AnalyticsPanel({ streamId }: { streamId: string }) {
  const [days, setDays] = useState(7);
  const [timeRange, setTimeRange] = useState(() => range(7));
  const analytics = useQuery(AnalyticsDocument, { streamId, timeRange });
  const listed = analytics.data?.analytics.usage.streaming.streamAnalyticsDailyConnection.nodes;
  const nodes = listed && everyDay(listed, timeRange.start, days);
  const choose = (value: number) => {
    setDays(value);
    setTimeRange(range(value));
  };
  return (
    <section aria-labelledby="analytics-heading" className="card">
      <div className="page-head">
        <h2 id="analytics-heading">Analytics</h2>
        <label>
          Range{' '}
          <select value={days} onChange={(event) => choose(Number(event.target.value))}>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
          </select>
        </label>
      </div>
      {analytics.error && <ErrorBox error={analytics.error} retry={analytics.reload} />}
      {!nodes && analytics.loading && <Loading what="analytics" />}
      {nodes?.every((n) => n.totalViews === 0 && n.egressBytes === 0) && (
        <Empty title="No views in this range">
          <p className="muted">Views are counted once viewers play the stream.</p>
        </Empty>
      )}
      {nodes?.some((n) => n.totalViews > 0 || n.egressBytes > 0) && (
        <div className="charts">
          <Chart title="Views per day" kind="bars" points={nodes.map((n) => ({ label: n.day, value: n.totalViews }))} />
          <Chart
            title="Unique viewers per day"
            kind="bars"
            points={nodes.map((n) => ({ label: n.day, value: n.uniqueViewers }))}
          />
          <Chart
            title="Egress per day"
            kind="bars"
            format={bytes}
            points={nodes.map((n) => ({ label: n.day, value: n.egressBytes }))}
          />
        </div>
      )}
    </section>
  );
}
