/** Today's daily analytics row of a stream over GraphQL (streamAnalyticsDailyConnection), for e2e tests. */
import type { TestServer } from '@airwave/server/testing/test-server';

/** What a day of a stream's analytics counts. */
export interface AnalyticsDay {
  readonly totalViews: number;
  readonly uniqueViewers: number;
  readonly egressBytes: number;
}

/** The stream's row for today (UTC), undefined before any session was written. */
export async function todaysAnalytics(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  streamId: string,
): Promise<AnalyticsDay | undefined> {
  const today = new Date().toISOString().slice(0, 10);
  const response = await server.graphql<{
    analytics: { usage: { streaming: { streamAnalyticsDailyConnection: { nodes: AnalyticsDay[] } } } };
  }>(
    `query ($id: ID!, $range: TimeRangeInput!) { analytics { usage { streaming {
      streamAnalyticsDailyConnection(streamId: $id, timeRange: $range) { nodes { totalViews uniqueViewers egressBytes } }
    } } } }`,
    { id: streamId, range: { start: `${today}T00:00:00Z`, end: new Date(Date.now() + 60_000).toISOString() } },
    token,
  );
  if (response.errors) {
    throw new Error(`analytics query failed: ${JSON.stringify(response.errors)}`);
  }
  return response.data?.analytics.usage.streaming.streamAnalyticsDailyConnection.nodes[0];
}
