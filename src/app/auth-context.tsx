import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../machines/auth.machine';

export type AuthRef = ActorRefFrom<typeof authMachine>;

/** The one running auth machine (created in main.tsx), for the router's guards and the frame. */
export const AuthContext = createContext<AuthRef | null>(null);

export function useAuthRef(): AuthRef {
  const ref = useContext(AuthContext);
  if (!ref) throw new Error('useAuthRef outside AuthContext');
  return ref;
}
