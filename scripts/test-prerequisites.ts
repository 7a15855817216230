/**
 * The first step of `npm test`: besides the npm packages, the suites need four Debian packages:
 * chromium-headless-shell (the end-to-end tests drive Debian's browser, never a downloaded one: its
 * old headless shell, or Chromium where the shell is absent), nginx and openssl
 * (the reverse-proxy test puts the product behind nginx with a self-signed certificate) and a Java
 * runtime, default-jre-headless (the markup test runs the W3C Nu HTML Checker, vnu.jar). One that
 * is missing stops the run at once with the command that installs it, before the checks and the
 * build spend minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Debian's old headless shell (package chromium-headless-shell): the end-to-end suite's browser. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's Chromium (package chromium): Lighthouse in the benchmark, and the suite's fallback. */
export const CHROMIUM = '/usr/bin/chromium';

export interface Where {
  /** The directories searched for programs (PATH). */
  path: string;
  /** The browsers the end-to-end suite can drive, the first found wins (CHROMIUM_PATH alone when set). */
  browsers: string[];
  /** Debian's nginx, where the reverse-proxy test runs it. */
  nginx: string;
}

const defaults = (): Where => ({
  path: process.env.PATH ?? '',
  browsers: process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : [HEADLESS_SHELL, CHROMIUM],
  nginx: '/usr/sbin/nginx',
});

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const onPath = (name: string, dirs: string) =>
  dirs
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => executable(path.join(dir, name)));

/**
 * The browser the end-to-end suite drives (playwright.config.ts): CHROMIUM_PATH when set, else the
 * headless shell, else Chromium; the shell's path when none is installed (the prerequisites check
 * has said so by then).
 */
export function e2eBrowser(browsers: string[] = defaults().browsers): string {
  return browsers.find(executable) ?? browsers[0]!;
}

/** The Debian packages the tests need that are not installed, in install order. */
export function missingPackages(where: Partial<Where> = {}): string[] {
  const w = { ...defaults(), ...where };
  const found: Record<string, boolean> = {
    'chromium-headless-shell': w.browsers.some(executable),
    nginx: executable(w.nginx),
    openssl: onPath('openssl', w.path),
    'default-jre-headless': onPath('java', w.path),
  };
  return Object.keys(found).filter((pkg) => !found[pkg]);
}

/** What to print when some are missing: which, and the one command that installs them. */
export function missingMessage(missing: string[]): string {
  return [
    `The tests also need Debian's ${missing.join(', ')} (not installed). Install with (as root):`,
    `  apt-get update && apt-get install -y ${missing.join(' ')}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const missing = missingPackages();
  if (missing.length > 0) {
    console.error(missingMessage(missing));
    process.exit(1);
  }
}
