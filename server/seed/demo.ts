import type { AppContext } from '../context';

/** Seeds the demo world on an empty database, never twice. (Filled in by the demo-world work.) */
export async function seedDemoWorld(_ctx: AppContext): Promise<void> {}
