// @node-lines same: a zod form schema: our rules
import { describe, expect, it } from 'vitest';
import { spendAlertsForm } from './spend-alert-inputs';

describe('the spend alerts form', () => {
  it('reads percents as typed and the floor in euros (empty: off)', () => {
    expect(spendAlertsForm.parse({ percents: '90 50%, 80', balanceFloor: '20' })).toEqual({ percents: [90, 50, 80], balanceFloor: 2_000 });
    expect(spendAlertsForm.parse({ percents: '', balanceFloor: ' ' })).toEqual({ percents: [], balanceFloor: null });
  });

  it('puts each refusal on its field, with the server rule’s message', () => {
    const issues = (values: { percents: string; balanceFloor: string }) => spendAlertsForm.safeParse(values).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ percents: '50, 0', balanceFloor: '' })).toEqual([['percents', 'A threshold is at least 1 %.']]);
    expect(issues({ percents: '50 50', balanceFloor: '' })).toEqual([['percents', 'Each threshold once.']]);
    expect(issues({ percents: 'half', balanceFloor: '' })).toEqual([['percents', 'Enter percents such as 50, 80, 100.']]);
    expect(issues({ percents: '80', balanceFloor: 'ten' })).toEqual([['balanceFloor', 'Enter an amount in euros, e.g. 25 or 25.50.']]);
    expect(issues({ percents: '80', balanceFloor: '0' })).toEqual([['balanceFloor', 'The floor is at least €0.01.']]);
  });
});
