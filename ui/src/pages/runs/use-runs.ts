/** useRuns(): the workspace's runs, newest first, page by page (?cursor= / X-Next-Cursor); refetched while one is live. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrapPage, type Page } from '../../api/client';
import { isLiveStatus } from '../../api/queries';
import type { Task } from '../../api/types';

export const PAGE_SIZE = 50;

export function useRuns() {
  return useInfiniteQuery({
    queryKey: ['tasks', 'list'],
    initialPageParam: '',
    queryFn: ({ pageParam }): Promise<Page<Task>> =>
      unwrapPage(api.GET('/api/v1/tasks', { params: { query: { limit: PAGE_SIZE, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((task) => isLiveStatus(task.status))) ? 3000 : 15_000,
  });
}
