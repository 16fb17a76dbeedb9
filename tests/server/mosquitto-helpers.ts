import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const deployDir = join(import.meta.dirname, '../../deploy/mosquitto');

/** Whether this machine can run the shipped configuration (mosquitto and mosquitto_passwd on the PATH). */
export function haveMosquitto(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v mosquitto && command -v mosquitto_passwd'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

export interface DeployedBroker {
  port: number;
  /** mqtt://tidewatch-server:<password>@127.0.0.1:<port>: what a server process's MQTT_URL is. */
  serverUrl: string;
  url: string;
  stop(): Promise<void>;
}

/**
 * Mosquitto with deploy/mosquitto as shipped, on a port of its own: the password file made by
 * make-passwd.sh from `devices` (serial and key), mosquitto.conf and tidewatch.acl with only the
 * paths and the listener moved into a temporary directory (and `user` the current one, as a
 * broker started by root otherwise drops to the mosquitto user, who cannot read them).
 */
export async function startDeployedBroker(devices: { serial: string; deviceKey: string }[], serverPassword: string): Promise<DeployedBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-mosquitto-'));
  const port = await freePort();
  writeFileSync(join(dir, 'devices.csv'), `# serial,key\n${devices.map((d) => `${d.serial},${d.deviceKey}`).join('\n')}\n`);
  execFileSync(join(deployDir, 'make-passwd.sh'), [join(dir, 'devices.csv'), join(dir, 'tidewatch.passwd')], { env: { ...process.env, TIDEWATCH_BROKER_PASSWORD: serverPassword } });
  writeFileSync(join(dir, 'tidewatch.acl'), readFileSync(join(deployDir, 'tidewatch.acl')));
  const conf = readFileSync(join(deployDir, 'mosquitto.conf'), 'utf8')
    .replaceAll('/etc/mosquitto/', `${dir}/`)
    .replace('/var/lib/mosquitto/', `${dir}/`)
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`);
  writeFileSync(join(dir, 'mosquitto.conf'), `${conf}\nuser ${userInfo().username}\n`);
  const child: ChildProcess = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // listening once a TCP connection is accepted
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((r) => {
      const c = connect(port, '127.0.0.1', () => (c.destroy(), r(true))).on('error', () => r(false));
    });
    if (ok) break;
    if (child.exitCode !== null || i > 100) throw new Error(`mosquitto did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    serverUrl: `mqtt://tidewatch-server:${encodeURIComponent(serverPassword)}@127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
