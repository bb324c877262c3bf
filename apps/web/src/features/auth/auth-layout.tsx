import { CheckIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/layout/logo.tsx';

const points = [
  '20M+ residential, mobile and datacenter IPs',
  '195 countries with city, ZIP and ASN targeting',
  'Pay per GB, and traffic never expires',
  '99.9% uptime and 24/7 support',
];

/** Sign-in and sign-up: the form on the right, what Bytegate offers on the left (wide screens only). */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen bg-white">
      <aside className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-brand-900 p-10 text-white lg:flex">
        <div
          aria-hidden="true"
          className="absolute inset-0 opacity-40"
          style={{
            background:
              'radial-gradient(circle at 20% 20%, #6366f1 0, transparent 45%), radial-gradient(circle at 80% 70%, #4338ca 0, transparent 40%)',
          }}
        />
        <Link to="/" className="relative inline-flex items-center gap-2 text-lg font-semibold">
          <span className="grid size-8 place-items-center rounded-lg bg-white/15">B</span> Bytegate
        </Link>
        <div className="relative space-y-6">
          <p className="text-3xl leading-tight font-semibold">
            Proxies billed by the byte, not by the month.
          </p>
          <ul className="space-y-3">
            {points.map((point) => (
              <li key={point} className="flex items-start gap-3 text-brand-100">
                <CheckIcon className="mt-0.5 size-5 shrink-0 text-brand-200" aria-hidden="true" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-brand-200">
          Trusted for scraping, testing and automation at any scale.
        </p>
      </aside>
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-sm space-y-8">
          <div className="space-y-2">
            <Logo className="lg:hidden" />
            <h1 className="pt-4 text-2xl font-semibold tracking-tight text-gray-900">{title}</h1>
            <p className="text-sm text-gray-600">{subtitle}</p>
          </div>
          {children}
          <p className="text-center text-sm">
            <Link to="/" className="text-gray-500 hover:text-gray-900">
              ← Back to home
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
