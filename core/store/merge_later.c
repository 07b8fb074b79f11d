/* merge: telling the later of two copies of a run, the other carried
 * further by a resume (merge.c brings it forward). */
#include <stdlib.h>
#include <string.h>

#include "store/merge_int.h"
#include "base/strbuf.h"

/* Table t's part of later_stmt: the earlier copy's rows (of its done steps)
 * are the later's, and for a step's rows no more and no fewer. */
static void later_table(struct strbuf *b, const struct merge_table *t, const char *xcols,
			const char *E, const char *e, const char *L, const char *l)
{
	/* as multisets: each row numbered among its equals (row_number), so two
	 * equal rows of the earlier need two in the later; a set's EXCEPT let
	 * the later's one stand for both, and the archive's second was lost */
	if (t->link == BY_RUN) {
		sb_printf(b, " AND NOT EXISTS (SELECT %s, row_number() OVER (PARTITION BY %s) FROM "
			  "%s.%s x WHERE x.run_id = %s EXCEPT SELECT %s, row_number() OVER (PARTITION "
			  "BY %s) FROM %s.%s x WHERE x.run_id = %s)",
			  xcols, xcols, E, t->name, e, xcols, xcols, L, t->name, l);
		return;
	}
	sb_printf(b, " AND NOT EXISTS (SELECT o.seq, %s, row_number() OVER (PARTITION BY o.seq, "
		  "%s) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s AND "
		  "o.status = 'done' EXCEPT SELECT o.seq, %s, row_number() OVER (PARTITION BY "
		  "o.seq, %s) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s)",
		  xcols, xcols, E, t->name, E, e, xcols, xcols, L, t->name, L, l);
	sb_printf(b, " AND (SELECT count(*) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id "
		  "WHERE o.run_id = %s AND o.status = 'done') = (SELECT count(*) FROM %s.%s x "
		  "JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s AND o.seq IN (SELECT "
		  "seq FROM %s.steps WHERE run_id = %s AND status = 'done'))",
		  E, t->name, E, e, L, t->name, L, l, E, e);
}

/* Is src run ?1 (fwd; else main run ?2), the later, the other copy carried
 * further by a resume? The earlier is not done; the later holds all it has
 * for good: the runs columns a resume leaves alone, its done steps with
 * their rows, its targets, steady states, probes and events (a resume adds
 * to these); and it went further: done, more steps done, or more events.
 * The earlier's unfinished steps are those the resume measured anew. */
sqlite3_stmt *merge_later_stmt(struct merge *m, bool fwd)
{
	const char *L = fwd ? "src" : "main", *l = fwd ? "?1" : "?2";
	const char *E = fwd ? "main" : "src", *e = fwd ? "?2" : "?1";
	char *fixed = merge_common_cols(m, "runs", "", MERGE_MOVING), *xcols;
	struct strbuf b = { 0 };
	bool ok = fixed != NULL;

	sb_printf(&b, "SELECT (SELECT status != 'done' FROM %s.runs WHERE id = %s) AND NOT "
		  "EXISTS (SELECT %s FROM %s.runs WHERE id = %s EXCEPT SELECT %s FROM %s.runs "
		  "WHERE id = %s) AND NOT EXISTS (SELECT %s FROM %s.steps WHERE run_id = %s AND "
		  "status = 'done' EXCEPT SELECT %s FROM %s.steps WHERE run_id = %s)", E, e,
		  fixed, E, e, fixed, L, l, m->step_cols, E, e, m->step_cols, L, l);
	for (unsigned i = 0; ok && i < NTABLES; i++) {
		if (!strcmp(merge_tables[i].name, "steps"))
			continue;
		ok = (xcols = merge_common_cols(m, merge_tables[i].name, "x.", NULL)) != NULL;
		if (ok)
			later_table(&b, &merge_tables[i], xcols, E, e, L, l);
		free(xcols);
	}
	sb_printf(&b, " AND ((SELECT status = 'done' FROM %s.runs WHERE id = %s) OR (SELECT "
		  "count(*) FROM %s.steps WHERE run_id = %s AND status = 'done') > (SELECT "
		  "count(*) FROM %s.steps WHERE run_id = %s AND status = 'done') OR (SELECT "
		  "count(*) FROM %s.events WHERE run_id = %s) > (SELECT count(*) FROM %s.events "
		  "WHERE run_id = %s))", L, l, L, l, E, e, L, l, E, e);
	free(fixed);
	if (ok)
		return merge_prep_owned(m, sb_take(&b));
	sb_free(&b);
	return NULL;
}
