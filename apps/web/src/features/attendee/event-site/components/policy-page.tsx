import { useQuery } from '../../site/site-query';
import { useParams } from '../../site/site-router';
import { api } from '../../../../ui/api-client';
import { Card } from '../kit/card';
import css from './policy-page.module.css';

type PublicPolicy = { id: string; details: { name: string; detail: string; dateModified: string } };

/**
 * /policies/{policyId} on a tenant's host: the platform's policies (refund policy, terms) as
 * attendees read them, linked from checkout. The HTML was sanitised by the server when saved.
 */
export function PolicyPage() {
  const { policyId = '' } = useParams();
  const policy = useQuery({
    queryKey: ['public-policy', policyId],
    queryFn: ({ signal }) => api.get<PublicPolicy>(`/api/p/policies/${encodeURIComponent(policyId)}`, undefined, signal),
    retry: false,
  });
  return (
    <main className={css.page}>
      <Card>
        {policy.isPending && <p>Loading…</p>}
        {policy.isError && <p>This policy could not be found.</p>}
        {policy.data && (
          <>
            <h1 className={css.title}>{policy.data.details.name || policy.data.id}</h1>
            <div className={css.body} dangerouslySetInnerHTML={{ __html: policy.data.details.detail }} />
            <p className={css.updated}>Last updated {new Date(policy.data.details.dateModified).toLocaleDateString('en-US', { dateStyle: 'long' })}</p>
          </>
        )}
      </Card>
    </main>
  );
}
