import { afterEach, describe, expect, it } from 'vitest';
import type { TUser } from '@mirra/contracts';
import { queryClient } from '../lib/query-client';
import { useSession } from '../lib/session';
import './providers';

const person = (id: number) => ({ id, uuid: `00000000-0000-4000-9000-00000000000${id}` }) as TUser;

afterEach(() => {
  queryClient.clear();
  useSession.setState({ user: null, isLoggedIn: false, status: 'guest' });
});

describe('the query cache belongs to one signed-in person', () => {
  it('is emptied when they sign out', () => {
    useSession.setState({ user: person(1), isLoggedIn: true, status: 'ready' });
    queryClient.setQueryData(['posts', 'list', 'drafts', ''], { pages: [] });
    useSession.setState({ user: null, isLoggedIn: false, status: 'guest' });
    expect(queryClient.getQueryData(['posts', 'list', 'drafts', ''])).toBeUndefined();
  });

  it("forgets the generate screens' drafts (prompt, photo) when they sign out, not when a guest signs in", () => {
    const key = 'mirra/generate-draft:/generate/editing/';
    sessionStorage.setItem(key, JSON.stringify({ prompt: 'my own words' }));
    sessionStorage.setItem('unrelated', 'kept');
    useSession.setState({ user: person(1), isLoggedIn: true, status: 'ready' });
    expect(sessionStorage.getItem(key)).not.toBeNull();
    useSession.setState({ user: null, isLoggedIn: false, status: 'guest' });
    expect(sessionStorage.getItem(key)).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it('is kept when their own record is read again, and when the first person signs in', () => {
    queryClient.setQueryData(['posts', 'list', 'new', ''], { pages: [] });
    useSession.setState({ user: person(1), isLoggedIn: true, status: 'ready' });
    useSession.setState({ user: { ...person(1), firstName: 'Ada' } });
    expect(queryClient.getQueryData(['posts', 'list', 'new', ''])).toEqual({ pages: [] });
  });
});
