import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../common/constants.ts';

/** Sets the browser tab's title for a page. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
