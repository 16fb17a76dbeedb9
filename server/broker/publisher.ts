/** Fan-out of live messages: the embedded broker or an external one behind the same shape. */
export interface Publisher {
  publish(topic: string, payload: unknown): Promise<void>;
  isReady(): boolean;
  close(): Promise<void>;
}

export const topics = {
  measurements: (orgId: string, sensorId: string) => `orgs/${orgId}/sensors/${sensorId}/measurements`,
  sensor: (orgId: string, sensorId: string) => `orgs/${orgId}/sensors/${sensorId}/state`,
  settings: (orgId: string, sensorId: string) => `orgs/${orgId}/sensors/${sensorId}/settings`,
  notifications: (orgId: string) => `orgs/${orgId}/notifications`,
  downlinkTasks: (orgId: string, sensorId: string) => `orgs/${orgId}/sensors/${sensorId}/downlink-tasks`,
  deviceUplink: (serial: string) => `devices/${serial}/uplink`,
};
