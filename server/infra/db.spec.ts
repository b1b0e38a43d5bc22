import { describe, expect, it } from 'vitest';
import { DB_KINDS, useApp } from '../../tests/support/app';

describe.each(DB_KINDS)('a repeated statement (%s)', (kind) => {
  const t = useApp(kind, { runWorker: false });

  it('answers what the rows are at each run, as a plain query does, one prepared statement per text', async () => {
    const db = t.app.ctx.db;
    await db.exec(`CREATE TABLE repeated_probe (n int)`);
    const count = `SELECT count(*)::int AS n FROM repeated_probe`;
    const largest = `SELECT max(n) AS n FROM repeated_probe`;
    expect((await db.repeated<{ n: number }>(count)).rows).toEqual([{ n: 0 }]);
    // More runs than PostgreSQL needs before it keeps a generic plan: the answer still follows the table.
    for (let i = 1; i <= 7; i++) {
      await db.query(`INSERT INTO repeated_probe VALUES ($1)`, [i * 10]);
      expect((await db.repeated<{ n: number }>(count)).rows).toEqual([{ n: i }]);
      expect(Number((await db.repeated<{ n: number }>(largest)).rows[0]!.n)).toBe(i * 10);
    }
    expect((await db.repeated(count)).rows).toEqual((await db.query(count)).rows);
    // Runs at once share the one statement.
    const together = await Promise.all([1, 2, 3].map(() => db.repeated<{ n: number }>(count)));
    expect(together.map((r) => r.rows[0]!.n)).toEqual([7, 7, 7]);
  });

  it('refuses a statement the database refuses, every time, and runs the others still', async () => {
    const db = t.app.ctx.db;
    await expect(db.repeated(`SELECT no_such_column FROM repeated_probe`)).rejects.toThrow(/no_such_column/);
    await expect(db.repeated(`SELECT no_such_column FROM repeated_probe`)).rejects.toThrow(/no_such_column/);
    expect((await db.repeated<{ n: number }>(`SELECT count(*)::int AS n FROM repeated_probe`)).rows).toEqual([{ n: 7 }]);
  });
});
