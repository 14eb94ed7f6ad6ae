import { encodeFilters, type ListResponse, type TOutboxMail } from '@marquee/core';
import { api } from '../../ui/api-client';

export type OutboxQuery = { cursor?: string; limit: number; to?: string };

export const outboxApi = {
  list: ({ cursor, limit, to }: OutboxQuery, signal?: AbortSignal) =>
    api.get<ListResponse<TOutboxMail>>(
      '/api/platform/outbox',
      { cursor, limit, filters: to ? encodeFilters([{ field: 'details.to', op: '=', value: to }]) : undefined },
      signal,
    ),
};
