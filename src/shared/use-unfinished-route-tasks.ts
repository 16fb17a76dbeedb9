import { useEffect, useState } from 'react';
import { unfinishedRouteTasksSchema } from '../contract/member.schema';
import { api } from './api';

export type UnfinishedCount = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; count: number } | { status: 'error' };

/**
 * How many unfinished route tasks the member holds in the organisation (GET
 * .../members/{memberId}/unfinished-route-tasks), read while a Remove or Leave confirmation is
 * open (`memberId` null: none is open), so the confirmation can say how many will be unassigned.
 */
export function useUnfinishedRouteTasks(orgId: string | null, memberId: string | null): UnfinishedCount {
  const key = orgId && memberId ? `${orgId}/${memberId}` : null;
  const [state, setState] = useState<{ key: string; count: UnfinishedCount } | null>(null);
  useEffect(() => {
    if (!key) return;
    const ctrl = new AbortController();
    api
      .get(`/organisations/${key.split('/')[0]}/members/${key.split('/')[1]}/unfinished-route-tasks`, { schema: unfinishedRouteTasksSchema, signal: ctrl.signal })
      .then((r) => setState({ key, count: { status: 'ready', count: r.unfinishedRouteTasks } }))
      .catch(() => !ctrl.signal.aborted && setState({ key, count: { status: 'error' } }));
    return () => ctrl.abort();
  }, [key]);
  if (!key) return { status: 'idle' };
  // an answer for another member (an earlier confirmation) is never shown
  return state?.key === key ? state.count : { status: 'loading' };
}

/** The count for unassignNotice: a number, or null when it could not be read. */
export const countOrNull = (s: UnfinishedCount) => (s.status === 'ready' ? s.count : null);
