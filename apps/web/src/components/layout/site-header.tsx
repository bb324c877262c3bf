import { MenuIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useSession } from '../../session/session-store.ts';
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

const desktopLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900';

/** The public top navigation, with a keyboard-friendly menu under the md breakpoint. */
export function SiteHeader() {
  const session = useSession();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // The menu opens once the app runs the page (a prerendered page is HTML until then).
  const isHydrated = useHydrated();
  // Escape closes the open menu and gives focus back to its button.
  useEffect(() => {
    if (!isMenuOpen) {
      return;
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);
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
                {/* Sections of the landing page are plain links: NavLink would mark all four as the current page. */}
                {link.to.startsWith('/#') ? (
                  <Link to={link.to} className={desktopLinkClass}>
                    {link.label}
                  </Link>
                ) : (
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      cn(desktopLinkClass, isActive && 'bg-brand-50 text-brand-700')
                    }
                  >
                    {link.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-2 md:flex">{actions}</div>
        <Button
          ref={toggleRef}
          disabled={!isHydrated}
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
