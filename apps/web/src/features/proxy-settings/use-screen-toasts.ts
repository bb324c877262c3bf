import { useCallback, useEffect, useRef } from 'react';
import { toast } from 'sonner';

/**
 * Error toasts that belong to one screen (one pool's settings). Each kind of failure has one toast id,
 * so the same failure met several times (three option lists refused at once) is one toast, updated in
 * place; and when the screen goes (another pool is chosen, or another section) its toasts go too, shown
 * or still waiting: one toast shows at a time, and a queue would outlive the pool it is about.
 */
export function useScreenToasts(scope: string): (kind: string, description: string) => void {
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const ids = shown.current;
    return () => {
      for (const id of ids) {
        if (id.startsWith(`${scope}:`)) {
          toast.dismiss(id);
          ids.delete(id);
        }
      }
    };
  }, [scope]);
  return useCallback(
    (kind: string, description: string) => {
      const id = `${scope}:${kind}`;
      shown.current.add(id);
      toast.error('Error', { id, description });
    },
    [scope],
  );
}
