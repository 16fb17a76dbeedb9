// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { createActor } from 'xstate';
import { remoteTaskMachine } from '../../../../machines/remote-task.machine';
import { MantineProvider } from '@mantine/core';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';
import { ALARM_LABELS } from '../../../domain/alarm-form';
import { ALARM_TYPE_LABEL } from '../../../domain/task-params';
import { formatSetupTime } from '../../../domain/time-format';
import { SessionContext, type Session } from '../../../shared/session';
import { failureText, taskDescription, taskParamRows } from './task-details';
import { TaskRow } from './task-row';
import { useTaskActors, type Notice } from './task-actors';
import { TASK_MESSAGES } from '../../../domain/remote-tasks';

// Remote task rows readable (sensor-setup 2, 4, 9; issue 36 items 6 and 7).
const T = Date.UTC(2026, 2, 15, 1, 5, 9); // 15/03/2026 14:05:09 in Auckland
const task = (over: Partial<DownlinkTask>): DownlinkTask => ({
  id: 't', sensorId: 's', type: 'AlarmConfig', status: 'Success', createdAt: T - 3600_000, dispatchedAt: null, endedAt: T,
  params: { index: 1, value: { type: 'THRESHOLD_INCREASING', enabled: true, threshold: 5800 }, original: null }, ...over,
});
const Row = ({ t, actor }: { t: DownlinkTask; actor: ReturnType<typeof createActor<typeof remoteTaskMachine>> }) => (
  <MantineProvider env="test">
    <SessionContext.Provider value={{ user: { displaySettings: { timeDisplay: 'Friendly' } } } as unknown as Session}>
      <TaskRow task={t} isSiteAdmin={false} timeZone="Pacific/Auckland" unit="Inches" actor={actor} />
    </SessionContext.Provider>
  </MantineProvider>
);
const mount = (t: DownlinkTask) => render(<Row t={t} actor={createActor(remoteTaskMachine, { input: { status: t.status } }).start()} />);

afterEach(cleanup);

describe('remote task rows', () => {
  it("dates read DD/MM/YYYY HH:mm:ss unless the user chose American dates", () => {
    expect(formatSetupTime(T, 'Friendly', 'Pacific/Auckland')).toBe('15/03/2026 14:05:09');
    expect(formatSetupTime(T, 'AmericanLocal', 'Pacific/Auckland')).toMatch(/^Mar 15, 2026, 2:05:09\s?PM$/);
  });
  it('a completed task shows its completed time without expanding', () => {
    mount(task({}));
    expect(screen.getByText(/Task completed/).textContent).toBe('Task completed 15/03/2026 14:05:09');
  });
  it("a dispatched task says 'Executing...' once", () => {
    mount(task({ status: 'Dispatched', endedAt: null, dispatchedAt: T }));
    // the row as it shows unexpanded (the details table sits in the collapsed part)
    const shown = screen.getAllByText('Executing...', { exact: false }).filter((e) => !e.closest('[data-testid="task-details"]'));
    expect(shown).toHaveLength(1);
  });
  it("parameters read with labels in the organisation's unit, not raw JSON in mm; alarms named as on the Alarm Settings tab", () => {
    expect(ALARM_TYPE_LABEL).toEqual(ALARM_LABELS);
    const t = task({});
    expect(taskDescription(t, 'Metres')).toBe('Alarm 2: High level at 5.800 m');
    expect(taskParamRows(t, 'Inches')).toEqual([
      ['Alarm slot', '2'],
      ['New alarm', 'High level at 228.3 in, enabled'],
      ['Previous alarm', 'None'],
    ]);
    expect(taskParamRows(task({ type: 'TransmissionConfig', params: { additionalRadarDataEnabled: true, startingLevelMm: 1200 } }), 'Metres')).toEqual([
      ['Extra radar data', 'On'],
      ['Starting level', '1.200 m'],
    ]);
  });
  it('a firmware task names its firmware (issue 36, item 7); one from before the names falls back to the id', () => {
    const fw = task({ type: 'FirmwareDownload', params: { fwId: 'f7c1e2a0-0000-4000-8000-000000000001', fwName: 'hilo-main-74-beta.bin', fwType: 'Main', fwVersion: 74 } });
    expect(taskDescription(fw, 'Metres')).toBe('Download and install hilo-main-74-beta.bin (Main v74)');
    expect(taskParamRows(fw, 'Metres')).toEqual([['Firmware', 'hilo-main-74-beta.bin (Main v74)']]);
    const old = task({ type: 'FirmwareDownload', params: { fwId: 'f7c1e2a0-0000-4000-8000-000000000001' } });
    expect(taskDescription(old, 'Metres')).toBe('Download and install new firmware');
    expect(taskParamRows(old, 'Metres')).toEqual([['Firmware', 'f7c1e2a0-0000-4000-8000-000000000001']]);
  });
  it("a failed task says why: the device's words when it gave them; a timed-out one what timing out means", () => {
    expect(failureText(task({ status: 'Error', reason: 'image checksum mismatch' }))).toBe('The sensor reported: image checksum mismatch');
    expect(failureText(task({ status: 'Error' }))).toBe('The sensor reported that it could not apply the task; it gave no reason.');
    expect(failureText(task({ status: 'Timeout' }))).toBe('The sensor did not report the task within 3 days of receiving it.');
  });

  it('a cancel whose task moves to Completed before the call answers is still announced (the actor outlives the row)', async () => {
    let answer!: () => void;
    const notices: Notice[] = [];
    const { result } = renderHook(() =>
      useTaskActors(() => new Promise<void>((resolve) => (answer = resolve)), (n) => notices.push(n)),
    );
    const queued = task({ status: 'Created', endedAt: null });
    const actor = result.current.actorFor(queued);
    const row = render(<Row t={queued} actor={actor} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(actor.getSnapshot().matches('canceling')).toBe(true);
    // the live message's reload lists the task as Canceled: the Queued row goes, a Completed row comes
    row.unmount();
    const canceled = task({ status: 'Canceled' });
    result.current.prune([]); // even a list without it keeps an actor whose cancel is in flight
    expect(result.current.actorFor(canceled)).toBe(actor);
    render(<Row t={canceled} actor={result.current.actorFor(canceled)} />);
    await act(async () => answer());
    expect(notices).toEqual([{ kind: 'success', text: TASK_MESSAGES.canceled }]);
    expect(actor.getSnapshot().matches({ completed: 'canceled' })).toBe(true);
    result.current.prune([]);
    expect(actor.getSnapshot().status).toBe('stopped');
  });
});
