/* columns.h - which columns a run prints (see columns.c); internal. */
#ifndef MCASTLAT_CLI_COLUMNS_H
#define MCASTLAT_CLI_COLUMNS_H

#include "cli/engine/engine.h"
#include "cli/engine/parse.h"

/* Set r->spec's columns from r->collist, r->given, r->varies, r->keep*
 * (again after an --input header); 0 or an exit status, reported. */
int ml_setup_columns(struct run *r);
void ml_free_columns(struct run *r);

/* The alias of option i (struct ml_alias), or NULL. */
const char *ml_alias_of(const struct ml_command *cmd, size_t i);

/* An option the run ignores (struct ml_unused with a value) at every
 * point: its choice option is not swept and has the value (the run), or
 * every value of its list in vl[] (one list per option) is that one.  A
 * sweep over several choices uses the option at some points. */
bool ml_unused_everywhere(const struct run *r, const struct ml_unused *u);
bool ml_unused_in_all(const struct ml_command *cmd,
		      const struct ml_vlist *vl, const struct ml_unused *u);
/* The same for a batch row's lists (vl[i] points to option i's list). */
bool ml_unused_in_row(const struct ml_command *cmd,
		      const struct ml_vlist *const *vl,
		      const struct ml_unused *u);

/* The cell of option i at value v (time in --unit; "auto" as text). */
void ml_cell_from_opt(const struct run *r, size_t i, union ml_val v,
		      struct ml_cell *c);

/* Option i is an input column of this run. */
bool ml_opt_is_column(const struct run *r, size_t i);

/* a (NUL-terminated) and the blen bytes at b are the same name, '-' and
 * '_' alike. */
bool ml_same_name(const char *a, const char *b, size_t blen);

/* The table's "# name=value ..." line (if any) and the header. */
void ml_out_preamble(const struct run *r, struct ml_buf *b);

#endif
