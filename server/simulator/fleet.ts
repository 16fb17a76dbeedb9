import type { AppContext } from '../context';

/** The fleet of virtual sensors. (Filled in by the demo-world work.) */
export function startSimulator(_ctx: AppContext) {
  return { stop() {} };
}
