import { MenuIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useSession } from '../../features/auth/session-store.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { Logo } from './logo.tsx';

const links = [
  { label: 'Home', to: '/#home' },
  { label: 'Features', to: '/#features' },
  { label: 'Pricing', to: '/#pricing' },
  { label: 'Support', to: '/#support' },
  { label: 'Help Center', to: '/help' },
  { label: 'Contact', to: '/contact' },
];

/** The public top navigation, with a keyboard-friendly menu under the md breakpoint. */
export function SiteHeader() {
  const session = useSession();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const actions = session ? (
    <Button asChild size="sm">
      <Link to="/dashboard">Dashboard</Link>
    </Button>
  ) : (
    <>
      <Button asChild size="sm" variant="ghost">
        <Link to="/login">Login</Link>
      </Button>
      <Button asChild size="sm">
        <Link to="/signup">Get Started</Link>
      </Button>
    </>
  );
  return (
    <header className="sticky top-0 z-40 border-b border-gray-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {links.map((link) => (
              <li key={link.label}>
                <NavLink
                  to={link.to}
                  className="rounded-md px-3 py-2 text-sm font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900"
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-2 md:flex">{actions}</div>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={isMenuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {isMenuOpen ? <XIcon /> : <MenuIcon />}
        </Button>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Main"
        className={cn(
          'border-t border-gray-200 bg-white px-4 pb-4 md:hidden',
          isMenuOpen ? 'block' : 'hidden',
        )}
      >
        <ul className="space-y-1 py-2">
          {links.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                onClick={() => setMenuOpen(false)}
                className="block rounded-md px-3 py-2 text-base font-medium text-gray-700 hover:bg-gray-100"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="flex gap-2">{actions}</div>
      </nav>
    </header>
  );
}
