/*
 * output.c - table, CSV (RFC 4180 quoting, LF line ends) and JSON Lines.
 *
 * One code path: a row is an array of typed cells; each format is a small
 * renderer of cells into a byte buffer.  Numbers are formatted without
 * snprintf in the common case (see ml_fmt_g): it dominates the cost of a
 * closed-form sweep otherwise.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/output.h"
#include "cli/engine/shortest.h"

void ml_buf_free(struct ml_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int ml_buf_flush(struct ml_buf *b, FILE *f)
{
	size_t n = b->len;

	b->len = 0;
	if (n && fwrite(b->p, 1, n, f) != n)
		return -1;
	return 0;
}

/* Make room for n more bytes; on failure set oom and return NULL. */
static char *reserve(struct ml_buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p == NULL) {
			b->oom = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->len;
}

static void put(struct ml_buf *b, const char *s, size_t n)
{
	char *d = reserve(b, n);

	if (d) {
		memcpy(d, s, n);
		b->len += n;
	}
}

void ml_buf_put(struct ml_buf *b, const char *s, size_t n)
{
	put(b, s, n);
}

static void putc_(struct ml_buf *b, char c)
{
	put(b, &c, 1);
}

static const double p10[] = {
	1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Digits of u, most significant first, exactly n of them. */
static void put_digits(char *d, uint64_t u, int n)
{
	while (n-- > 0) {
		d[n] = (char)('0' + u % 10);
		u /= 10;
	}
}

/* %g layout of prec digits (no trailing zeros) with decimal exponent e. */
static size_t layout_g(char *out, bool neg, const char *dig, int prec, int e)
{
	char *o = out;
	int nd = prec, i;

	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (neg)
		*o++ = '-';
	if (e < -4 || e >= prec) {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		if (e < 0)
			e = -e;
		if (e >= 100)
			*o++ = (char)('0' + e / 100);
		*o++ = (char)('0' + e / 10 % 10);
		*o++ = (char)('0' + e % 10);
	} else if (e >= 0) {
		for (i = 0; i <= e; i++)
			*o++ = i < nd ? dig[i] : '0';
		if (nd > e + 1) {
			*o++ = '.';
			memcpy(o, dig + e + 1, (size_t)(nd - e - 1));
			o += nd - e - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -e - 1; i++)
			*o++ = '0';
		memcpy(o, dig, (size_t)nd);
		o += nd;
	}
	*o = '\0';
	return (size_t)(o - out);
}

/*
 * Exact in the cases it accepts: scaled = |x| 10^k is computed with one
 * rounding (10^k exact for |k| <= 22), so its error is below one ulp of a
 * number < 10^prec <= 10^15; rounding to an integer is decided unless the
 * fraction lies within that error of one half, and then snprintf decides.
 */
static int fast_digits(double ax, int prec, char *dig, int *exp10)
{
	int e2, e, k, tries;
	double scaled = 0, r, frac, tol;

	/* log10(2) = 0.30103: a first guess of the decimal exponent that
	 * the loop below corrects by one either way. */
	frexp(ax, &e2);
	e = (int)floor((e2 - 1) * 0.30102999566398120);
	for (tries = 0; tries < 3; tries++) {
		k = prec - 1 - e;
		if (k > 22 || k < -22)
			return -1;
		scaled = k >= 0 ? ax * p10[k] : ax / p10[-k];
		if (scaled >= p10[prec])
			e++;
		else if (scaled < p10[prec - 1])
			e--;
		else
			break;
	}
	if (tries == 3)
		return -1;
	r = floor(scaled);
	frac = scaled - r;
	tol = scaled * 4.5e-16 + 1e-300;
	if (fabs(frac - 0.5) <= tol)
		return -1;
	if (frac > 0.5)
		r += 1.0;
	if (r >= p10[prec]) {
		r = p10[prec - 1];
		e++;
	}
	put_digits(dig, (uint64_t)r, prec);
	*exp10 = e;
	return 0;
}

/* An integer of at most prec digits prints as itself under %g. */
static size_t int_fast(char *out, double x, int prec)
{
	double ax = fabs(x);
	uint64_t u;
	char tmp[24];
	int n = 0;
	size_t len = 0;

	if (!(ax < 9007199254740992.0) || ax != floor(ax) || ax >= p10[prec])
		return 0;
	u = (uint64_t)ax;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (x < 0)
		out[len++] = '-';
	while (n)
		out[len++] = tmp[--n];
	out[len] = '\0';
	return len;
}

size_t ml_fmt_g(char *out, double x, int prec)
{
	char dig[24];
	int e;

	if (prec < 1)
		prec = 1;
	if (isnan(x)) {
		memcpy(out, "nan", 4);
		return 3;
	}
	if (isinf(x)) {
		strcpy(out, x < 0 ? "-inf" : "inf");
		return x < 0 ? 4 : 3;
	}
	if (x == 0.0) {
		strcpy(out, signbit(x) ? "-0" : "0");
		return signbit(x) ? 2 : 1;
	}
	if (prec <= 15) {
		size_t n = int_fast(out, x, prec);

		if (n)
			return n;
		if (fast_digits(fabs(x), prec, dig, &e) == 0)
			return layout_g(out, x < 0, dig, prec, e);
	}
	return (size_t)snprintf(out, 33, "%.*g", prec, x);
}

size_t ml_out_number(const struct ml_outspec *s, const struct ml_cell *c,
		     char *buf)
{
	if (c->kind == ML_CELL_RAW) {
		memcpy(buf, c->v.s, c->len);
		buf[c->len] = '\0';
		return c->len;
	}
	if (c->kind == ML_CELL_INT)
		return ml_fmt_int(buf, c->v.i);
	if (!isfinite(c->v.r) && s->fmt == ML_FMT_JSON)
		return 0;
	if (s->precision == 0)
		return ml_fmt_shortest(buf, c->v.r);
	return ml_fmt_g(buf, c->v.r, s->precision);
}

static bool csv_needs_quotes(const char *t)
{
	/* A plain loop: the strings are short and a call costs more. */
	for (; *t; t++)
		if (*t == ',' || *t == '"' || *t == '\r' || *t == '\n')
			return true;
	return false;
}

static void put_csv_text(struct ml_buf *b, const char *t)
{
	if (!csv_needs_quotes(t)) {
		put(b, t, strlen(t));
		return;
	}
	putc_(b, '"');
	for (; *t; t++) {
		if (*t == '"')
			putc_(b, '"');
		putc_(b, *t);
	}
	putc_(b, '"');
}

/* TSV text: tab, newline, carriage return and backslash escaped as \t,
 * \n, \r and \\ (as miller and the IANA TSV rule require: no field
 * holds a tab or a line end). */
static void put_tsv_text(struct ml_buf *b, const char *t)
{
	for (; *t; t++) {
		switch (*t) {
		case '\t':
			put(b, "\\t", 2);
			break;
		case '\n':
			put(b, "\\n", 2);
			break;
		case '\r':
			put(b, "\\r", 2);
			break;
		case '\\':
			put(b, "\\\\", 2);
			break;
		default:
			putc_(b, *t);
		}
	}
}

/* Text of a delimited format: csv, tsv, or the table's cells before
 * table.c aligns them (tab-separated; an empty text is "-", so that
 * awk and cut see every field). */
static void put_delim_text(struct ml_buf *b, const char *t, enum ml_fmt fmt)
{
	if (fmt == ML_FMT_CSV)
		put_csv_text(b, t);
	else if (fmt == ML_FMT_TABLE && *t == '\0')
		putc_(b, '-');
	else
		put_tsv_text(b, t);
}

static void put_json_string(struct ml_buf *b, const char *t)
{
	static const char hex[] = "0123456789abcdef";

	putc_(b, '"');
	for (; *t; t++) {
		unsigned char ch = (unsigned char)*t;

		if (ch == '"' || ch == '\\') {
			putc_(b, '\\');
			putc_(b, (char)ch);
		} else if (ch < 0x20) {
			char esc[6] = {'\\', 'u', '0', '0', hex[ch >> 4],
				       hex[ch & 15]};
			put(b, esc, 6);
		} else {
			putc_(b, (char)ch);
		}
	}
	putc_(b, '"');
}

void ml_out_header(const struct ml_outspec *s, struct ml_buf *b)
{
	size_t j;

	if (!s->header || s->fmt == ML_FMT_JSON)
		return;
	for (j = 0; j < s->ncols; j++) {
		if (j)
			putc_(b, s->fmt == ML_FMT_CSV ? ',' : '\t');
		put_delim_text(b, s->cols[j].name, s->fmt);
	}
	putc_(b, '\n');
}

static void row_json(const struct ml_outspec *s, const struct ml_cell *cells,
		     struct ml_buf *b)
{
	char num[40];
	size_t j, n;

	putc_(b, '{');
	for (j = 0; j < s->ncols; j++) {
		if (j)
			putc_(b, ',');
		put_json_string(b, s->cols[j].name);
		putc_(b, ':');
		if (cells[j].kind == ML_CELL_TEXT) {
			put_json_string(b, cells[j].v.s ? cells[j].v.s : "");
			continue;
		}
		n = ml_out_number(s, &cells[j], num);
		if (n == 0)
			put(b, "null", 4);
		else
			put(b, num, n);
	}
	put(b, "}\n", 2);
}

/* CSV and TSV: numbers are written straight into the buffer (the hot
 * path). */
static void row_csv(const struct ml_outspec *s, const struct ml_cell *cells,
		    struct ml_buf *b)
{
	size_t j, room = s->ncols * 48 + 1; /* a number is < 40 bytes */
	char *d, sep = s->fmt == ML_FMT_CSV ? ',' : '\t';

	if (reserve(b, room) == NULL)
		return;
	d = b->p + b->len;
	for (j = 0; j < s->ncols; j++) {
		const struct ml_cell *c = &cells[j];

		if (j)
			*d++ = sep;
		if (c->kind == ML_CELL_RAW) {
			memcpy(d, c->v.s, c->len);
			d += c->len;
		} else if (c->kind != ML_CELL_TEXT) {
			d += ml_out_number(s, c, d);
		} else {
			const char *t = c->v.s ? c->v.s : "";
			char brief[ML_BRIEF_MAX];

			b->len = (size_t)(d - b->p);
			if (s->fmt == ML_FMT_TABLE && s->cols && s->cols[j].brief)
				t = s->cols[j].brief(t, brief, sizeof brief);
			if (s->fmt == ML_FMT_CSV)
				put_csv_text(b, t);
			else
				put_delim_text(b, t, s->fmt);
			if (reserve(b, room) == NULL)
				return;
			d = b->p + b->len;
		}
	}
	*d++ = '\n';
	b->len = (size_t)(d - b->p);
}

void ml_out_row(const struct ml_outspec *s, const struct ml_cell *cells,
		struct ml_buf *b)
{
	if (s->fmt == ML_FMT_JSON)
		row_json(s, cells, b);
	else
		row_csv(s, cells, b);
}
