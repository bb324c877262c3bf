import { PRODUCT_NAME } from '@bytegate/contracts/constants';
import { useEffect } from 'react';

/** Sets the tab title to '<page> | Bytegate'. */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} | ${PRODUCT_NAME}`;
  }, [page]);
}
