import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '#admin/api/audit.ts';
import { activitySentences } from '#admin/components/activity-text.ts';
import { ApiError, errorMessage } from '#lib/api-client.ts';

const fail = (status: number, body: unknown = '') => new ApiError(status, typeof body === 'string' ? body : JSON.stringify(body), 'Status');

describe('[PLAIN] error messages', () => {
  it('server faults and unavailability never show their technical text', () => {
    for (const [status, body] of [
      [500, { message: 'Internal server error' }],
      [500, { message: 'database unavailable' }],
      [502, '<html><body>Bad Gateway</body></html>'],
      [503, { message: 'The service is briefly unavailable. Please try again in a minute.' }],
    ] as const) {
      const text = errorMessage(fail(status, body));
      expect(text).not.toMatch(/\d{3}|Internal|database|<html/i);
      expect(text).toMatch(/try again/i);
    }
  });

  it('a lost connection says to check the connection', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(
      'The server could not be reached. Check your internet connection, then try again.',
    );
  });

  it('messages written for people are kept; technical ones become sentences with a next step', () => {
    expect(errorMessage(fail(400, { message: 'Title is required' }))).toBe('Title is required');
    const stale = 'This item was changed by someone else. Reload to get the latest version.';
    expect(errorMessage(fail(409, { message: stale }))).toBe(stale);
    expect(errorMessage(fail(401, { message: 'Invalid username or password' }))).toBe('Invalid username or password');
    expect(errorMessage(fail(401, { message: 'Authentication required' }))).toMatch(/^You have been signed out\. Sign in again/);
    expect(errorMessage(fail(403, { message: 'Administrator access required' }))).toMatch(/not allowed/);
    expect(errorMessage(fail(404, { message: 'Service not found' }))).toMatch(/no longer exists.*Reload/);
    expect(errorMessage(fail(413, { message: 'Request body is too large' }))).toMatch(/too large.*smaller/);
    expect(errorMessage(fail(413, ''))).toMatch(/too large/);
    expect(errorMessage(fail(429, ''))).toMatch(/Wait a minute/);
    expect(errorMessage(fail(409, { message: 'A record with the same unique value already exists' }))).toMatch(/Choose a different one/);
    expect(errorMessage(fail(400, { message: 'Invalid request' }))).toMatch(/Check the fields/);
  });

  it('the SPEC 7 error message itself is unchanged: "{status}: {text}"', () => {
    expect(fail(500, 'database unavailable').message).toBe('500: database unavailable');
  });
});

const entry = (e: Partial<AuditEntry> & Pick<AuditEntry, 'action' | 'entity'>): AuditEntry => ({
  id: 1,
  actorName: 'admin',
  entityId: '3',
  subject: null,
  before: null,
  after: null,
  createdAt: '2026-01-01T00:00:00Z',
  ...e,
});

describe('[PLAIN] the Activity list in sentences', () => {
  it('names the home page title and both values', () => {
    expect(activitySentences(entry({ action: 'update', entity: 'header', before: { title: 'A' }, after: { title: 'B' } }))).toEqual([
      'Changed the home page title from “A” to “B”.',
    ]);
  });

  it('names a list row by its recorded name, one sentence per change', () => {
    const e = entry({
      action: 'update',
      entity: 'service',
      subject: 'Cloud Services',
      before: { description: 'Old words', isActive: true },
      after: { description: 'New words', isActive: false },
    });
    expect(activitySentences(e)).toEqual([
      'Changed the description of the service “Cloud Services” from “Old words” to “New words”.',
      'Made the service “Cloud Services” inactive.',
    ]);
  });

  it('renames, publishes, marks inquiries and tells replies', () => {
    expect(activitySentences(entry({ action: 'update', entity: 'service', before: { title: 'Old' }, after: { title: 'New' } }))).toEqual([
      'Renamed the service “Old” to “New”.',
    ]);
    expect(
      activitySentences(
        entry({
          action: 'update',
          entity: 'insight',
          subject: 'Supplier Vetting',
          before: { isPublished: false, publicationDate: null },
          after: { isPublished: true, publicationDate: '2026-01-01' },
        }),
      ),
    ).toEqual(['Published the insight “Supplier Vetting”.']);
    expect(
      activitySentences(
        entry({
          action: 'update',
          entity: 'contact-submission',
          subject: 'Jane Buyer',
          before: { status: 'pending' },
          after: { status: 'completed' },
        }),
      ),
    ).toEqual(['Marked the inquiry from Jane Buyer as Completed.']);
    expect(
      activitySentences(
        entry({ action: 'create', entity: 'contact-response', subject: 'Jane Buyer', after: { submissionId: 3, message: 'Thanks!' } }),
      ),
    ).toEqual(['Replied to the inquiry from Jane Buyer “Thanks!”.']);
  });

  it('adds and deletes by name; long texts are not quoted in full', () => {
    expect(
      activitySentences(entry({ action: 'create', entity: 'feature:home', after: { title: 'Fast Delivery', section: 'home' } })),
    ).toEqual(['Added the home page feature card “Fast Delivery”.']);
    expect(activitySentences(entry({ action: 'delete', entity: 'insight', before: { title: 'Old News' } }))).toEqual([
      'Deleted the insight “Old News”.',
    ]);
    const long = 'x'.repeat(200);
    expect(
      activitySentences(entry({ action: 'update', entity: 'content:about', before: { content: long }, after: { content: `${long}y` } })),
    ).toEqual(['Changed the text of the About page.']);
  });

  it('the daily spam clean-up says how many messages it deleted', () => {
    expect(activitySentences(entry({ action: 'delete', entity: 'spam-retention', after: { deleted: 412, olderThanDays: 30 } }))).toEqual([
      'Deleted 412 messages of suspected spam older than 30 days.',
    ]);
  });

  it('older rows without a recorded name still read as sentences', () => {
    expect(
      activitySentences(entry({ action: 'update', entity: 'service', before: { description: 'a' }, after: { description: 'b' } })),
    ).toEqual(['Changed the description of service no. 3 from “a” to “b”.']);
  });
});
