/*
 * cmd.h - how a command plugs into the mcastlat engine.
 *
 * A command is data: a table of options (each a sweepable parameter, a
 * choice, a flag or a text), a table of result columns, and three
 * functions: check (cross-option domain rules for one point), eval (one
 * point -> result cells + status) and nothing else.  The engine parses the
 * command line with getopt_long built from the option table, expands value
 * lists into a streamed cartesian product, calls check and eval per point
 * and prints rows through the output module.  A command file therefore
 * only converts values to a model's params struct and back.
 *
 * It stands at the top of src/cli, between the rooms: the commands
 * (commands/cmd_<name>.c) include it as "cli/cmd.h" and nothing else of
 * the engine (engine/), which includes it to run them.
 */
#ifndef MCASTLAT_CLI_CMD_H
#define MCASTLAT_CLI_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mcastlat/fit.h"
#include "mcastlat/status.h"

struct ml_ctx;
struct ml_vlist;

/* One value of one option or one result cell. */
union ml_val {
	double r;	/* ML_OPT_REAL, ML_OPT_TIME; ML_COL_REAL, ML_COL_TIME */
	long long i;	/* ML_OPT_INT, ML_OPT_CHOICE, ML_OPT_FLAG; ML_COL_INT */
	const char *s;	/* ML_OPT_TEXT; ML_COL_TEXT (static strings only) */
};

/* "Not given, work it out" for options whose default is derived from
 * other options (torus --r defaults to k): INT options hold ML_AUTO_INT,
 * REAL/TIME options hold NaN (test with isnan), TEXT options NULL. */
#define ML_AUTO_INT LLONG_MIN

enum ml_opt_kind {
	ML_OPT_INT,	/* integer; ranges in exact integer arithmetic */
	ML_OPT_REAL,	/* real number */
	ML_OPT_TIME,	/* real in the command's time unit; ns/us/ms/s suffixes */
	ML_OPT_CHOICE,	/* one of choices[]; .i is the index (list allowed) */
	ML_OPT_FLAG,	/* takes no argument; .i is 1 when given; no column */
	ML_OPT_TEXT	/* free text, not swept, no column (e.g. --members) */
};

/* Option flags. */
#define ML_OPT_NOCOL	0x01u /* not printed among the input columns */
#define ML_OPT_ALL	0x02u /* CHOICE: the word "all" expands to every choice */
#define ML_OPT_INTOK	0x04u /* CHOICE: an integer >= imin is also accepted;
			       * then .i >= 0 is that integer and a choice is
			       * stored as -(index + 1); see ml_choice_of() */
#define ML_OPT_SINGLE	0x08u /* takes one value only, not a list */
#define ML_OPT_MINOPEN	0x10u /* REAL/TIME: min itself is excluded (> min) */
#define ML_OPT_FILE	0x20u /* TEXT: names a file (the shell completion
			       * offers file names) */
#define ML_OPT_NOEMIT	0x40u /* how to use a model, not part of it: fit
			       * --emit leaves it out (collective --level) */
#define ML_OPT_MACHINE	0x80u /* a parameter of the machine (collective's
			       * channel times): the default table's "#"
			       * line names the machine (the command's
			       * machine, or the --input file) instead of
			       * listing such options, but for those given
			       * on the command line */
#define ML_OPT_TERSE	0x100u /* a detail at its default: the default
				* table's "#" line leaves it out unless given
				* (collective --fanout; --all-columns shows
				* it) */

struct ml_opt {
	const char *name;	/* long option; with '-' -> '_' the column and
				 * batch header (both spellings are read) */
	enum ml_opt_kind kind;
	const char *def;	/* default, parsed like user input; NULL: auto */
	const char *unit;	/* for --help: "bytes", "us" (TIME: the
				 * command's time unit is used), NULL */
	/* Domain, inclusive.  A max that is not above its min (as when left
	 * zero-initialised) means "no upper bound". */
	double min, max;	/* REAL/TIME */
	long long imin, imax;	/* INT (and INTOK CHOICE) */
	unsigned flags;
	const char *const *choices; /* CHOICE: NULL-terminated list */
	const char *help;	/* one line for --help */
	/* ML_OPT_ALL: "all" expands to the first all_count choices (the
	 * concrete ones, before words such as "best"); 0: every choice. */
	size_t all_count;
};

/* Another name an option answers to on the command line and in --input
 * headers (hypercube --dim for --dims); never printed. */
struct ml_alias {
	const char *opt, *alias;
};

/* An option the mode ignores, and so no column, when a flag is set
 * (hypercube --rate under --saturation), or when value is not NULL, when
 * the CHOICE option named by flag has that value (simulate --k under
 * --topology hypercube): then giving the option is a usage error. */
struct ml_unused {
	const char *opt, *flag, *value;
};

/* An option that only some values of a CHOICE option use (simulate
 * --prune-wait is for --multicast tree only): when it is given and some
 * points have another value, one warning per run names the option and
 * those values; the rows are unchanged (a sweep over the choice stays
 * legal). */
struct ml_ignored {
	const char *opt, *flag;
	const char *const *uses; /* the flag's values that use opt */
};

enum ml_col_kind {
	ML_COL_INT,	/* printed exactly */
	ML_COL_REAL,	/* %.*g */
	ML_COL_TIME,	/* %.*g after conversion to --unit */
	ML_COL_TEXT	/* a static string */
};

struct ml_col {
	const char *name;
	enum ml_col_kind kind;
	const char *help;
	/* When not NULL the column exists only if the named FLAG option is
	 * set (only_with) or not set (only_without). */
	const char *only_with;
	const char *only_without;
	/* true: printed even when the status is not ok (e.g. a note, the
	 * formula used); numeric result columns otherwise print nan/null. */
	bool always;
	/* true: NaN here means "not applicable" (to this model or variant);
	 * otherwise a REAL/TIME result that is not finite in an ok row makes
	 * the engine mark the row "overflow". */
	bool na;
	/* When not NULL the column exists only if visible(base) holds for
	 * the run's first values (collective's intervals: a machine with an
	 * error model). */
	bool (*visible)(const union ml_val *base);
	/* When not NULL the column applies only if applies(vl) holds for
	 * the run's value lists (vl[i] the list of opts[i]; NULL for an
	 * option an --input file gives, which may take any value): CSV,
	 * JSON and the default table leave out a column that does not
	 * apply (collective's best only for --algorithm best); --columns
	 * may still name it. */
	bool (*applies)(const struct ml_vlist *const *vl);
	/* true: a detail, not in the default table (--all-columns and
	 * --columns show it; CSV and JSON keep it). */
	bool detail;
	/* When not NULL, a text column's shorter form in the table (the
	 * text itself, or a static string in its place; CSV, TSV and JSON
	 * keep the text): MPICH's algorithm names in collective's
	 * chosen, so that the table fits 120 columns. */
	const char *(*brief)(const char *text, char *buf, size_t len);
};

/* Bytes of text scratch each row offers its TEXT cells (struct ml_point). */
#define ML_TEXT_MAX 512

/* One point of a sweep as the command sees it: v[i] is the value of
 * opts[i] (defaults filled in, units converted to the command's own). */
struct ml_point {
	const union ml_val *v;
	/* What the command's prepare() made for this sweep (a file read
	 * once, not per point), or NULL. */
	const void *prep;
	/* ML_TEXT_MAX bytes that eval() may use for the text of its TEXT
	 * cells (a note that quotes a number): valid until the row is
	 * printed, which happens before the next eval() on this thread. */
	char *text;
	/*
	 * Most work one point may do, 0 for no limit: for a simulation,
	 * node-cycles.  Fuzzing lowers it (struct ml_ctx) so that no input
	 * runs for long; a point above it is evaluated shortened.
	 */
	unsigned long long max_work;
	/*
	 * Progress of this point, for a long evaluation (a simulation):
	 * when not NULL, eval() may call progress(progress_arg, done,
	 * detail) now and then, from its own thread, with done in [0, 1]
	 * and detail a short phrase of where the point stands ("1.2M
	 * cycles, interval 3.1% of the mean, target 2%"), or NULL.  The
	 * engine sets it for a slow command while the progress line is on.
	 */
	void (*progress)(void *arg, double done, const char *detail);
	void *progress_arg;
};

/* A status a row of a command can have, and what it means there. */
struct ml_status_doc {
	enum ml_status st;
	const char *help;	/* one line for --help; NULL ends a list */
};

/* What a command's fit_errmodel hook reports (collective's error model,
 * SPEC 10.5): option values for --emit, a # line, and the error of its
 * forward validation, which chooses among listed option values. */
#define ML_FIT_ERR_MAXSET 24
struct ml_fit_errout {
	double fwd_rms; /* NaN: no forward validation */
	size_t nfwdfits; /* forward fits that judged a point */
	size_t nset;
	const char *names[ML_FIT_ERR_MAXSET];
	double vals[ML_FIT_ERR_MAXSET];
	char note[1024];
};

struct ml_command {
	const char *name;
	/* The machine its ML_OPT_MACHINE options' defaults describe, for
	 * the table's "# machine=..." (collective: "default (THIN fit)"),
	 * or NULL. */
	const char *machine;
	const char *summary;	/* one line for `mcastlat list` */
	const char *source;	/* the source paper, short */
	const char *time_unit;	/* "us" or "cycles" */
	const struct ml_opt *opts;
	size_t nopts;
	const struct ml_col *cols;	/* result columns, after the inputs */
	size_t ncols;
	/*
	 * Cross-option domain rules for one point (single-option ranges are
	 * checked by the engine from min/max).  Return ML_OK, or ML_EINVAL
	 * with *d naming the option.  May be NULL.  The engine runs it
	 * before a sweep (a sweep no point of which passes is a usage
	 * error) and to explain the first invalid row; eval() must return
	 * ML_EINVAL for every point check() rejects, as a model's eval does
	 * by validating its parameters first.
	 */
	enum ml_status (*check)(const struct ml_point *pt, struct ml_diag *d);
	/*
	 * Evaluate one point: fill out[j] for cols[j] (hidden columns may be
	 * left alone) and return the status.  Notes and warnings go in an
	 * ML_COL_TEXT column (e.g. "note", always = true).  Must be thread
	 * safe: no static mutable state.
	 */
	enum ml_status (*eval)(const struct ml_point *pt, union ml_val *out);
	/*
	 * Optional.  prepare() runs once per sweep (once per run, and once
	 * more for a batch row that sets a TEXT option) before any check()
	 * or eval(), with the values of the options not swept (TEXT options
	 * cannot be swept): it reads what every point shares, such as a
	 * file named by a TEXT option, into *prep (pt->prep later).  It
	 * returns ML_OK, or ML_EINVAL with *d naming the option: a usage
	 * error (a bad batch row).  release() frees *prep.
	 */
	enum ml_status (*prepare)(const union ml_val *base, void **prep,
				  struct ml_diag *d);
	void (*release)(void *prep);
	/*
	 * true when a point costs seconds rather than microseconds (a
	 * simulation): the engine evaluates one point per chunk, so that
	 * --jobs spreads even a short sweep over threads, and writes each
	 * row as soon as it and the rows before it are done.
	 */
	bool slow;
	/* These lists end with an entry of NULLs; any may be NULL. */
	const struct ml_alias *aliases;
	const struct ml_unused *unused;
	const struct ml_ignored *ignored;
	/*
	 * Every status a row of this command can have (ok first), each
	 * with what it means for this command: --help prints the list and
	 * the man page's STATUS section must name the same words in the
	 * same order (tests/cli/statuses.sh).  NULL: every status.
	 */
	const struct ml_status_doc *statuses;
	/* A status other than ML_OK whose rows keep their results as ok
	 * rows do (SPEC 1.2: simulate's no-convergence keeps what it
	 * measured); ML_OK: none, the results of any other status print as
	 * nan. */
	enum ml_status keeps;
	/*
	 * mcastlat fit (fit/fit_cmd.c); fit_model NULL: the command cannot be
	 * fitted.  fit_params converts one point's option values to the
	 * model's params struct (ML_EINVAL with *d for a rule of the
	 * options the model does not know).  fit_inputs (NULL-terminated)
	 * names the options that describe a point rather than the machine
	 * (message size, cluster size): --emit leaves them out, so that a
	 * sweep can set them, and --residuals prints them.  fit_needs
	 * returns an input a point must state (in its file or on the
	 * command line) rather than take by default, or NULL.
	 */
	const struct ml_fit_model *fit_model;
	enum ml_status (*fit_params)(const union ml_val *v, void *params,
				     struct ml_diag *d);
	const char *const *fit_inputs;
	const char *(*fit_needs)(const union ml_val *v, const bool *stated);
	/* Optional: a caution about a valid point's inputs as given (a
	 * default the data likely do not mean), or NULL; fit warns once
	 * with the number of points it concerns. */
	const char *(*fit_note)(const union ml_val *v, const bool *stated);
	/*
	 * For a command without an --op option, which reads benchmark rows
	 * that name their operation (op=bcast, op=p2p for a ping-pong):
	 * fit_pair names the option that holds the size of the set a
	 * multicast reaches (kbinomial's nodes, torus's group), which a
	 * ping-pong sets to 2, a multicast to one destination; NULL: the
	 * command models no point-to-point message.  fit_collective says
	 * whether a point is a collective, whose time --stat auto takes as
	 * the slowest rank's; NULL: unless its row says op=p2p.
	 */
	const char *fit_pair;
	bool (*fit_collective)(const union ml_val *v);
	/*
	 * Optional: after fit_params, told whether the point's measurement
	 * is a mean over ranks (OSU's Avg, a CSV latency_avg column) rather
	 * than the last rank's time, so that the model predicts the
	 * matching result (collective: latency_avg or latency; SPEC 10.4).
	 */
	void (*fit_measure)(void *params, bool mean);
	/*
	 * Optional: after a successful fit (data, the free set and the
	 * options as fitted, res the fit), the error model
	 * of the fitted machine into *out.  Returns 0, or -1 (out of
	 * memory).  With it, fit chooses among listed option values by
	 * out->fwd_rms (forward validation) rather than by AIC.
	 */
	/* With fit_errmodel: the options of the free set that are
	 * mechanisms (collective's overhead and nic-gap), NULL-terminated:
	 * --free auto keeps each only where the fit's forward validation
	 * predicts better with it than with it at 0 (SPEC 10.5). */
	const char *const *fit_mechanisms;
	int (*fit_errmodel)(const struct ml_fit_data *data,
			    const char *const *freeset, size_t nfree,
			    const struct ml_fit_options *o,
			    const struct ml_fit_result *res,
			    struct ml_fit_errout *out);
	/*
	 * Optional: runs once the command line is parsed (with --input,
	 * once per row of the file instead, the row's values in), with
	 * every option's value list (vl[i] for opts[i]), the first values
	 * (base) and --format (NULL: table).  It returns -1 to let the
	 * engine run the point or sweep as usual, or an exit status when
	 * it has done the work itself (collective --schedule prints
	 * messages, not rows); in a batch row, nonzero rejects the row.
	 * prep is what prepare() made for the sweep that follows (NULL
	 * without prepare): the takeover may leave in it what the sweep's
	 * eval() then reads instead of computing again (collective --rules
	 * leaves best's picks), before any eval() runs.
	 */
	int (*takeover)(const struct ml_command *cmd,
			const struct ml_vlist *const *vl,
			const union ml_val *base, const char *format,
			struct ml_ctx *ctx, void *prep);
	/* The FLAG options (a comma-separated list) under which takeover
	 * prints all the output (no table header before an --input file's
	 * rows), or NULL. */
	const char *takeover_flag;
	/*
	 * Optional: true for a point of a sweep that has no row, its values
	 * not going together (collective: an algorithm of another library
	 * than --library's, as "all" lists every library's).  check() must
	 * reject such a point too, so that a sweep of nothing else is a
	 * usage error that says why.
	 */
	bool (*skip)(const union ml_val *v);
	/*
	 * Optional: prepare() that also reads the --input file (its name;
	 * NULL without --input or with standard input), called instead of
	 * prepare() when set (collective: a machine file's "# measured: "
	 * lines, SPEC 10.7).
	 */
	enum ml_status (*prepare_input)(const union ml_val *base,
					const char *input, void **prep,
					struct ml_diag *d);
	/*
	 * Optional: the value option i takes, as command-line text into
	 * buf (len bytes), when the command line did not give it, from
	 * what prepare() made (prep; given[j]: whether the command line
	 * gave option j); NULL: the option's own default (collective: the
	 * measured cells' placement where no placement option was given).
	 */
	const char *(*adopt)(const void *prep, const bool *given, size_t i,
			     char *buf, size_t len);
};

/* Decode an ML_OPT_INTOK choice value: returns the choice index, or -1
 * when the value is a plain integer. */
static inline long long ml_choice_of(long long v)
{
	return v < 0 ? -v - 1 : -1;
}

/* Each command is one file src/cli/commands/cmd_<name>.c defining
 *   const struct ml_command ml_cmd_<name>;
 * the command table is generated from those files (see the Makefile). */

#endif
