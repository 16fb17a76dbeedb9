import { fromPromise } from 'xstate';
import { signupMachine, type SignupRequestBody } from '../../../machines/signup.machine';
import type { ClaimInput } from '../../../machines/claim-form.machine';
import { claimSensorResponseSchema, signupResponseSchema } from '../../contract/account.schema';
import { api } from '../../shared/api';

/** The wizard with its two unsigned gateway calls (monitoring-client 7). */
export const liveSignupMachine = signupMachine.provide({
  actors: {
    claimSensor: fromPromise<unknown, ClaimInput>(({ input }) => api.post('/claim-sensor', input, { unsigned: true, schema: claimSensorResponseSchema })),
    signup: fromPromise<{ organisationSlug: string | null }, SignupRequestBody>(async ({ input }) => {
      const answer = await api.post('/signup', input, { unsigned: true, schema: signupResponseSchema });
      return { organisationSlug: answer.organisation.slug };
    }),
  },
});
