import type {
  CatalogResponse,
  ImportCatalogRequest,
  ImportCatalogResponse,
} from '@bytegate/contracts/admin-catalog';
import type {
  AddSourceRequest,
  ChangeSourceRequest,
  SourceDaysResponse,
  SourceResponse,
  SupplyRange,
  SupplyResponse,
} from '@bytegate/contracts/admin-supply';
import type {
  ImportVendorUsageRequest,
  ImportVendorUsageResponse,
  ReconciliationResponse,
} from '@bytegate/contracts/admin-supply-reconciliation';
import { defineApiSection } from './api-client.ts';

// The console's Supply page calls (issue 29): the sources with their figures, one source day by day, an
// admin's addition or change, a network's catalog, and a source's reconciliation against its vendor's
// usage export (read by staff, imported by admins). Kept in the console's chunk like admin-client.ts.

/** Staff read the sources; adding and changing are an admin's (support is answered 403). */
export const adminSupplyApi = defineApiSection((request) => ({
  list: (days: SupplyRange) => request<SupplyResponse>('GET', `/admin/sources?days=${days}`),
  days: (sourceId: string, days: SupplyRange) =>
    request<SourceDaysResponse>('GET', `/admin/sources/${encodeURIComponent(sourceId)}/days?days=${days}`),
  add: (body: AddSourceRequest) => request<SourceResponse>('POST', '/admin/sources', { body }),
  change: (sourceId: string, body: ChangeSourceRequest) =>
    request<SourceResponse>('PATCH', `/admin/sources/${encodeURIComponent(sourceId)}`, { body }),
  reconciliation: (sourceId: string, days: SupplyRange) =>
    request<ReconciliationResponse>(
      'GET',
      `/admin/sources/${encodeURIComponent(sourceId)}/reconciliation?days=${days}`,
    ),
  importVendorUsage: (sourceId: string, body: ImportVendorUsageRequest) =>
    request<ImportVendorUsageResponse>(
      'POST',
      `/admin/sources/${encodeURIComponent(sourceId)}/reconciliation`,
      { body },
    ),
  catalog: (sourceId: string) =>
    request<CatalogResponse>('GET', `/admin/sources/${encodeURIComponent(sourceId)}/catalog`),
  importCatalog: (sourceId: string, body: ImportCatalogRequest) =>
    request<ImportCatalogResponse>('POST', `/admin/sources/${encodeURIComponent(sourceId)}/catalog`, {
      body,
    }),
}));

/** Where the range's CSV downloads from (the session cookie goes along). */
export const supplyCsvUrl = (days: SupplyRange) => `/api/admin/sources.csv?days=${days}`;
