import { describe, expect, it } from 'vitest';
import { organizationNameProblem, organizationNameSchema } from '@/shared/orgs/organization-name';

describe('organization names', () => {
  it.each([
    'Demo organization',
    'Atelier Nord',
    'Acme Inc.',
    'J.P. Morgan Interiors',
    'Studio 5.2',
    'Müller & Söhne GmbH',
    '北京设计工作室',
    "L'Atelier d'Anna",
  ])('accepts %s', (name) => {
    expect(organizationNameProblem(name)).toBeNull();
  });

  it.each([
    'ACCOUNT SUSPENDED - verify at https://evil.example/login',
    'http://evil.example',
    'hxxps://evil.example',
    'Visit www.evil.example now',
    'evil.example/login',
    'Booking.com',
    'support.evil-corp.io',
    'evil。example', // ideographic full stop: IDNA reads it as a dot
    'evil．example', // fullwidth full stop
    'ｅｖｉｌ.ｅｘａｍｐｌｅ', // fullwidth letters fold to ASCII (NFKC)
    'xn--80ak6aa92e.xn--p1ai',
    'Call 192.168.1.1',
    'Write to admin@evil.example',
    'mailto:someone',
    'javascript:alert(1)',
    'Line\nbreak',
    'Right\u202Eto-left override',
    'Zero\u200Bwidth',
    '   ',
    'x'.repeat(101),
  ])('refuses %j', (name) => {
    expect(organizationNameProblem(name)).not.toBeNull();
  });

  it('is the schema the forms and the procedures share', () => {
    expect(organizationNameSchema.safeParse('  Atelier Nord ').data).toBe('Atelier Nord');
    expect(organizationNameSchema.safeParse('see https://evil.example').success).toBe(false);
  });
});
