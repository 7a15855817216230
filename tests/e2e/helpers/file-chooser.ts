import type { FileChooser, Page } from '@playwright/test';

/**
 * Catches the page's file choosers from now on: call it at the start of a test, well before the
 * click that opens one. Playwright starts intercepting file choosers when the first listener is
 * added, and that takes a round trip to the browser that the next action does not wait for; on a
 * busy machine a click right after `page.waitForEvent('filechooser')` could open the chooser before
 * it was intercepted, and the event never came.
 */
export function watchFileChoosers(page: Page): { next(): Promise<FileChooser> } {
  const waiting: ((c: FileChooser) => void)[] = [];
  const ready: FileChooser[] = [];
  page.on('filechooser', (c) => {
    const take = waiting.shift();
    if (take) take(c);
    else ready.push(c);
  });
  return {
    next: () => {
      const c = ready.shift();
      return c ? Promise.resolve(c) : new Promise<FileChooser>((resolve) => waiting.push(resolve));
    },
  };
}
