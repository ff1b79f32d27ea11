/** useRuns(filters): the workspace's runs matching the filters (filtered by the API), newest first, page by page (?cursor= / X-Next-Cursor); refetched while one is live. */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrapPage, type Page } from '../../api/client';
import { isLiveStatus } from '../../api/queries';
import type { Task } from '../../api/types';
import { filterQuery, type RunFilters } from './run-filters';

export const PAGE_SIZE = 50;

export function useRuns(filters: RunFilters) {
  const query = filterQuery(filters);
  return useInfiniteQuery({
    queryKey: ['tasks', 'list', query],
    initialPageParam: '',
    queryFn: ({ pageParam }): Promise<Page<Task>> =>
      unwrapPage(api.GET('/api/v1/tasks', { params: { query: { ...query, limit: PAGE_SIZE, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.pages.some((page) => page.items.some((task) => isLiveStatus(task.status))) ? 3000 : 15_000),
  });
}
