import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../../machines/auth.machine';

/** The running auth machine, created at the app edge and handed to the signed-out pages. */
export type AuthRef = ActorRefFrom<typeof authMachine>;
