import { useCallback, useEffect, useState } from 'react';
import { clientErrorPageSchema, type ClientError } from '../../contract/client-error.schema';
import { messageForError } from '../../domain/messages';
import { api } from '../../shared/api';

export type ClientErrorsLoad =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; errors: ClientError[]; next: string | null; loadingMore: boolean };

export const PAGE_SIZE = 50;

/** The newest client error reports, a page at a time (site admins; the server refuses anyone else). */
export function useClientErrors(attempt: number) {
  const [state, setState] = useState<ClientErrorsLoad>({ status: 'loading' });

  useEffect(() => {
    if (attempt < 0) return; // not a site admin: nothing to ask for
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    api
      .get('/admin/client-errors', { query: { limit: PAGE_SIZE }, schema: clientErrorPageSchema, signal: ctrl.signal })
      .then((page) => setState({ status: 'ready', errors: page.clientErrors, next: page.next, loadingMore: false }))
      .catch((err: unknown) => {
        if (!ctrl.signal.aborted) setState({ status: 'error', message: messageForError(err) });
      });
    return () => ctrl.abort();
  }, [attempt]);

  const loadMore = useCallback(async () => {
    if (state.status !== 'ready' || !state.next) return;
    setState({ ...state, loadingMore: true });
    try {
      const page = await api.get('/admin/client-errors', { query: { limit: PAGE_SIZE, start: state.next }, schema: clientErrorPageSchema });
      setState({ status: 'ready', errors: [...state.errors, ...page.clientErrors], next: page.next, loadingMore: false });
    } catch (err) {
      setState({ status: 'error', message: messageForError(err) });
    }
  }, [state]);

  return { state, loadMore };
}
