// /admin: the dashboard's totals (GET /api/admin/info).
import { useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { ErrorDisplay } from '../shared/ErrorDisplay';

const TOTALS: Array<[keyof ApiAnswer<'adminInfo'>, string]> = [
  ['totalUsers', 'Players'],
  ['totalPremium', 'Premium players'],
  ['totalGallery', 'Gallery textures'],
  ['totalCapes', 'Capes worn'],
  ['totalEars', 'Ears worn'],
];

/** The dashboard island. */
export default function AdminDashboard() {
  const [info, setInfo] = useState<ApiAnswer<'adminInfo'> | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  useEffect(() => {
    apiCall('adminInfo').then(setInfo, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, []);

  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="text-3xl font-extrabold">
        Dashboard
      </h1>
      <ErrorDisplay error={error} />
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" aria-busy={!info && !error}>
        {TOTALS.map(([key, label]) => (
          <div key={key} className="card" data-testid={`total-${key}`}>
            <dt className="text-sm text-ink-300">{label}</dt>
            <dd className="mt-1 text-3xl font-extrabold">{info ? info[key].toLocaleString('en-US') : '…'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
