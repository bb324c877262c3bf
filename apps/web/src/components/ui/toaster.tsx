import { Toaster as Sonner } from 'sonner';

/** One toast at a time (SPEC section 9), bottom right, 4 s. */
export function Toaster() {
  return <Sonner position="bottom-right" visibleToasts={1} duration={4000} richColors closeButton />;
}
