import type { FleetHealthResponse } from '@bytegate/contracts/admin-health';
import { defineApiSection } from './api-client.ts';

// The console's abuse and health view (issue 15), kept in the console's chunk like admin-client.ts.
export const adminHealthApi = defineApiSection((request) => ({
  get: () => request<FleetHealthResponse>('GET', '/admin/health'),
}));
