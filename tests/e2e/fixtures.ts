import { test as base, expect } from '@playwright/test';

export const ADMIN = {
  username: process.env.ADMIN_USERNAME ?? 'admin',
  password: process.env.ADMIN_PASSWORD ?? 'e2e-admin-password',
};

export { base as test, expect };
