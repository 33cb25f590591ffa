// @node-lines same: type assertions only: nothing runs on a Node line
import { describe, expectTypeOf, it } from 'vitest';
import type { Db, DbTx, Tx } from '@/server/platform/db';
import { appendLedgerEntry, chargeBalance, grantCredit } from './ledger';
import { refundIfCharged } from '@/server/capabilities/generations/generations';

/**
 * The ledger's writers take a branded transaction client: `npm run typecheck` fails if the
 * client itself (or any unbranded client) could be passed, i.e. if a balance change could run
 * outside a transaction. Only `transaction()` (platform/db.ts) makes a `Tx`.
 */
describe('ledger functions take a transaction, never the client', () => {
  it('refuses Db and DbTx where a Tx is required', () => {
    expectTypeOf<Parameters<typeof appendLedgerEntry>[0]>().toEqualTypeOf<Tx>();
    expectTypeOf<Parameters<typeof chargeBalance>[0]>().toEqualTypeOf<Tx>();
    expectTypeOf<Parameters<typeof grantCredit>[0]>().toEqualTypeOf<Tx>();
    expectTypeOf<Parameters<typeof refundIfCharged>[0]>().toEqualTypeOf<Tx>();
    expectTypeOf<Db>().not.toExtend<Tx>();
    expectTypeOf<DbTx>().not.toExtend<Tx>();
    expectTypeOf<Tx>().toExtend<DbTx>();
  });
});
