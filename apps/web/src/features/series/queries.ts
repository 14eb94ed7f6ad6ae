import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddSeriesDateRequest, TCreateSeriesRequest, TMoveSeriesDateRequest, TSeries, TUpdateSeriesTicketTypeRequest } from '@marquee/core';
import { eventKeys } from '../../shared/query-keys';
import * as seriesApi from './api';

export const seriesKeys = {
  list: (tenantId: string) => ['series', tenantId] as const,
  one: (tenantId: string, seriesId: string) => ['series', tenantId, seriesId] as const,
};

export const useSeriesList = (tenantId: string) => useQuery({ queryKey: seriesKeys.list(tenantId), queryFn: () => seriesApi.listSeries(tenantId) });
export const useSeries = (tenantId: string, seriesId: string) => useQuery({ queryKey: seriesKeys.one(tenantId, seriesId), queryFn: () => seriesApi.getSeries(tenantId, seriesId) });

function useSeriesMutation<V, R extends TSeries>(tenantId: string, fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (series) => {
      client.setQueryData(seriesKeys.one(tenantId, series.id), series);
      void client.invalidateQueries({ queryKey: seriesKeys.list(tenantId) });
      // Each date is an ordinary event: the events list shows them too.
      void client.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}

export const useCreateSeries = (tenantId: string) => useSeriesMutation(tenantId, (body: TCreateSeriesRequest) => seriesApi.createSeries(tenantId, body));
export const useAddSeriesDate = (tenantId: string, seriesId: string) => useSeriesMutation(tenantId, (body: TAddSeriesDateRequest) => seriesApi.addSeriesDate(tenantId, seriesId, body));
export const useMoveSeriesDate = (tenantId: string, seriesId: string) =>
  useSeriesMutation(tenantId, ({ eventId, body }: { eventId: string; body: TMoveSeriesDateRequest }) => seriesApi.moveSeriesDate(tenantId, seriesId, eventId, body));
export const useCancelSeriesDate = (tenantId: string, seriesId: string) =>
  useSeriesMutation(tenantId, ({ eventId, message }: { eventId: string; message?: string }) => seriesApi.cancelSeriesDate(tenantId, seriesId, eventId, message));
export const useUpdateSeriesTicketType = (tenantId: string, seriesId: string) =>
  useSeriesMutation(tenantId, ({ ticketTypeId, body }: { ticketTypeId: string; body: TUpdateSeriesTicketTypeRequest }) => seriesApi.updateSeriesTicketType(tenantId, seriesId, ticketTypeId, body));
