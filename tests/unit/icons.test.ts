import { Award, ChartColumn, CircleCheck, Database, Factory, Puzzle, Shield, Star, Truck, Users } from 'lucide-static';
import { describe, expect, it } from 'vitest';
import { iconBody } from '#components/site/icon-body.ts';
import { ICONS, iconFor } from '#components/site/icons.ts';
import { SERVICE_ICONS } from '#shared/constants.ts';
import { FALLBACK_ABOUT_FEATURES, FALLBACK_FEATURES, FALLBACK_SERVICES } from '#shared/fallbacks.ts';

describe('[ICONS] Lucide drawings', () => {
  it("takes the drawing out of Lucide's SVG string, on one line, without its own <svg>", () => {
    const body = iconBody(Database);
    expect(body).toMatch(/^<ellipse [^>]+\/>/);
    expect(body).not.toContain('<svg');
    expect(body).not.toContain('\n');
    expect(iconBody('not an svg')).toBe('');
  });
});

describe('[ICONS] stored icon names', () => {
  it('every service icon option (SPEC 3) draws a Lucide icon of its own, never the star', () => {
    for (const name of SERVICE_ICONS) expect(iconFor(name), name).not.toBe(ICONS.star);
    expect(new Set(SERVICE_ICONS.map((n) => iconFor(n))).size).toBe(SERVICE_ICONS.length);
    expect(iconFor('chart-bar')).toBe(iconBody(ChartColumn));
    expect(iconFor('users')).toBe(iconBody(Users));
    expect(iconFor('check-circle')).toBe(iconBody(CircleCheck));
  });
  it('the starting content and the rotating five of the home cards draw what they name', () => {
    for (const { icon } of [...FALLBACK_FEATURES, ...FALLBACK_ABOUT_FEATURES, ...FALLBACK_SERVICES]) {
      expect(iconFor(icon, 'no-such-fallback'), icon).not.toBe(ICONS.star);
    }
    expect(['award', 'puzzle', 'chart', 'shield', 'truck'].map((n) => iconFor(n))).toEqual(
      [Award, Puzzle, ChartColumn, Shield, Truck].map(iconBody),
    );
  });
  it('icon-font classes resolve to the same icons', () => {
    expect(iconFor('fas fa-shield')).toBe(ICONS.shield);
    expect(iconFor('fa-users')).toBe(ICONS.users);
    expect(iconFor('fas fa-certificate')).toBe(ICONS.award);
    expect(iconFor('fas fa-industry')).toBe(iconBody(Factory));
  });
  it('an unknown name draws the given fallback, else the star', () => {
    expect(iconFor('no-such-icon', 'puzzle')).toBe(ICONS.puzzle);
    expect(iconFor('no-such-icon')).toBe(iconBody(Star));
    expect(iconFor('', 'truck')).toBe(ICONS.truck);
  });
});
