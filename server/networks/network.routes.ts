import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context';
import { HttpError, badRequest } from '../http/errors';
import { orgOfSecret, SECRET_HEADER, type Network } from './network-secrets';
import { certificateSource, myriotaSignatureProblem } from './myriota-signature';
import { myriotaDataSchema, myriotaEnvelopeSchema, sigfoxCallbackSchema, takeMyriotaPackets, takeSigfoxCallback } from './callbacks';

/**
 * Radio networks' cloud callbacks under /ingest (docs/device-protocol.md): the Sigfox backend's
 * custom callbacks (data uplink and bidirectional) and Myriota's HTTP destination. A callback is
 * authenticated by the organisation's secret for that network (header X-Tidewatch-Secret; Myriota's
 * destination, a bare URL, may put it in the path instead), and takes uplinks only for the
 * organisation's own sensors; a Myriota message must also carry Myriota's signature (MYRIOTA_SIGNATURE,
 * myriota-signature.ts). Its frame is decoded by the radio's one codec and stored through the
 * same ingest path as every uplink (idempotent on sensor and time: a repeated callback stores
 * nothing twice), which publishes it live after commit.
 */

const unauthorised = () => new HttpError(401, 'INVALID_NETWORK_SECRET', 'Unknown or missing callback secret.');

const reason = (e: z.ZodError, what: string) => {
  const i = e.issues[0];
  return `Invalid ${what}: ${i.path.join('.') || 'body'}: ${i.message}`;
};

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest('INVALID_JSON', 'The callback body is not valid JSON.');
  }
}

async function authorise(ctx: AppContext, c: Context, network: Network, inPath?: string) {
  const orgId = await orgOfSecret(ctx.db, network, c.req.header(SECRET_HEADER) ?? inPath);
  if (!orgId) {
    ctx.log.warn({ network, ip: c.req.header('x-forwarded-for') }, 'network callback refused: unknown or missing secret');
    throw unauthorised();
  }
  return orgId;
}

export function networkRoutes(ctx: AppContext) {
  const r = new Hono();
  const certificates = certificateSource(ctx.config.MYRIOTA_CERTIFICATE_DIR);

  r.post('/sigfox', async (c) => {
    const orgId = await authorise(ctx, c, 'sigfox');
    const parsed = sigfoxCallbackSchema.safeParse(await jsonBody(c));
    if (!parsed.success) throw badRequest('INVALID_CALLBACK', reason(parsed.error, 'Sigfox callback'));
    const answer = await takeSigfoxCallback(ctx, orgId, parsed.data);
    if (answer.downlinkData === undefined) return c.json({ stored: answer.stored, duplicates: answer.duplicates });
    if (answer.downlinkData === null) return c.body(null, 204); // Sigfox's way of saying: nothing to send
    return c.json({ [parsed.data.device]: { downlinkData: answer.downlinkData } });
  });

  const myriota = async (c: Context, inPath?: string) => {
    const orgId = await authorise(ctx, c, 'myriota', inPath);
    const envelope = myriotaEnvelopeSchema.safeParse(await jsonBody(c));
    if (!envelope.success) throw badRequest('INVALID_CALLBACK', reason(envelope.error, 'Myriota message'));
    if (ctx.config.MYRIOTA_SIGNATURE === 'verify') {
      const problem = await myriotaSignatureProblem(envelope.data, certificates);
      if (problem) {
        ctx.log.warn({ orgId, problem, id: envelope.data.Id }, 'Myriota message refused: its signature does not verify');
        throw new HttpError(401, 'INVALID_SIGNATURE', `The Myriota message's signature does not verify: ${problem}`);
      }
    }
    let data: unknown;
    try {
      data = JSON.parse(envelope.data.Data);
    } catch {
      throw badRequest('INVALID_CALLBACK', 'Invalid Myriota message: Data: is not JSON text.');
    }
    const packets = myriotaDataSchema.safeParse(data);
    if (!packets.success) throw badRequest('INVALID_CALLBACK', reason(packets.error, 'Myriota message Data'));
    return c.json(await takeMyriotaPackets(ctx, orgId, packets.data.Packets));
  };
  r.post('/myriota', (c) => myriota(c));
  r.post('/myriota/:secret', (c) => myriota(c, c.req.param('secret')));
  return r;
}
