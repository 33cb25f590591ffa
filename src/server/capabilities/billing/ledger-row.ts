import type { BalanceTransactionType } from '@/generated/prisma/enums';

/** A balance ledger row as appended: what its effects (ledger-effects.ts) read. */
export interface AppendedLedgerRow {
  id: string;
  organizationId: string;
  type: BalanceTransactionType;
  amount: number;
  balanceAfter: number;
  generationId: string | null;
  expiresAt: Date | null;
}
