/*
 * table.c - the aligned table (see table.h).  Widths count UTF-8 code
 * points, not bytes; columns are two spaces apart; numbers and other
 * right-aligned cells are padded on the left, text on the right (never
 * at the end of a line).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/engine/table.h"

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t cps(const char *s, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

int ml_table_init(struct ml_table *t, const struct ml_outcol *cols,
		  size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->hold = TABLE_HOLD;
	t->width = calloc(ncols + 1, sizeof(*t->width));
	return t->width ? 0 : -1;
}

void ml_table_free(struct ml_table *t)
{
	free(t->width);
	ml_buf_free(&t->held);
	ml_buf_free(&t->line);
	t->width = NULL;
}

/* Widen the columns for one raw line (no line end). */
static void measure(struct ml_table *t, const char *s, size_t n)
{
	size_t j = 0, w, len;

	while (j < t->ncols) {
		len = 0;
		while (len < n && s[len] != '\t')
			len++;
		w = cps(s, len);
		if (w > t->width[j])
			t->width[j] = w;
		j++;
		if (len >= n)
			break;
		s += len + 1;
		n -= len + 1;
	}
}

static int spaces(FILE *f, size_t n)
{
	static const char sp[] = "                                ";

	while (n > 0) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;

		if (fwrite(sp, 1, k, f) != k)
			return -1;
		n -= k;
	}
	return 0;
}

/* Write one raw line padded to the widths, with its line end. */
static int emit(const struct ml_table *t, const char *s, size_t n, FILE *f)
{
	size_t j, len, w;
	bool last;

	if (n > 0 && s[0] == '#')
		return fwrite(s, 1, n, f) == n && fputc('\n', f) != EOF ? 0
									: -1;
	for (j = 0; j < t->ncols; j++) {
		len = 0;
		while (len < n && s[len] != '\t')
			len++;
		w = cps(s, len);
		last = j + 1 == t->ncols || len >= n;
		if (j && fwrite("  ", 1, 2, f) != 2)
			return -1;
		if (!t->cols[j].left && spaces(f, t->width[j] - w))
			return -1;
		if (fwrite(s, 1, len, f) != len)
			return -1;
		if (t->cols[j].left && !last && spaces(f, t->width[j] - w))
			return -1;
		if (last)
			break;
		s += len + 1;
		n -= len + 1;
	}
	return fputc('\n', f) == EOF ? -1 : 0;
}

static int release(struct ml_table *t, FILE *f)
{
	const char *p = t->held.p, *end;

	t->streaming = true;
	if (t->held.len == 0)
		return 0;
	end = p + t->held.len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (emit(t, p, n, f))
			return -1;
		p += n + 1;
	}
	t->held.len = 0;
	t->nheld = 0;
	t->streaming = true;
	return 0;
}

/* One whole raw line. */
static int take(struct ml_table *t, const char *s, size_t n, FILE *f)
{
	if (n > 0 && s[0] == '#' && !t->streaming && t->nheld == 0)
		return emit(t, s, n, f);
	if (!(n > 0 && s[0] == '#'))
		measure(t, s, n);
	if (t->streaming)
		return emit(t, s, n, f);
	if (t->nheld == 0)
		t->t0 = mono_s();
	ml_buf_put(&t->held, s, n);
	ml_buf_put(&t->held, "\n", 1);
	if (t->held.oom)
		return -1;
	if (++t->nheld >= t->hold || mono_s() - t->t0 > 1.0)
		return release(t, f);
	return 0;
}

int ml_table_feed(struct ml_table *t, const char *p, size_t n, FILE *f)
{
	const char *end;

	if (n == 0)
		return 0; /* p may be NULL: an empty buffer */
	end = p + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl == NULL) {
			ml_buf_put(&t->line, p, (size_t)(end - p));
			return t->line.oom ? -1 : 0;
		}
		if (t->line.len) {
			ml_buf_put(&t->line, p, (size_t)(nl - p));
			if (t->line.oom || take(t, t->line.p, t->line.len, f))
				return -1;
			t->line.len = 0;
		} else if (take(t, p, (size_t)(nl - p), f)) {
			return -1;
		}
		p = nl + 1;
	}
	return 0;
}

int ml_table_finish(struct ml_table *t, FILE *f)
{
	if (t->line.len) {
		if (take(t, t->line.p, t->line.len, f))
			return -1;
		t->line.len = 0;
	}
	return release(t, f);
}
