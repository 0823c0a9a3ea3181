/*
 * suggest.c - "did you mean" by edit distance (see suggest.h): a typo
 * anywhere in an option name (--gropu, --grup, --gruop) finds it, not
 * only a prefix.
 */
#include <stdbool.h>
#include <string.h>

#include "cli/meta/suggest.h"

#define MAXW 64

int ml_edit_distance(const char *a, const char *b, int cap)
{
	/* Three rows of the dynamic programme: i-2, i-1 and i. */
	int r0[MAXW + 1], r1[MAXW + 1], r2[MAXW + 1];
	int *pp = r0, *p = r1, *c = r2, *t;
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la >= MAXW || lb >= MAXW)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > (size_t)cap)
		return cap + 1;
	for (j = 0; j <= lb; j++)
		p[j] = (int)j;
	for (i = 1; i <= la; i++) {
		int best;

		c[0] = (int)i;
		best = c[0];
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = p[j - 1] + cost;

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb] > cap ? cap + 1 : p[lb];
}

const char *ml_suggest(const char *word, const char *const *names, size_t n)
{
	size_t len = strlen(word), i;
	int cap = len <= 4 ? 1 : len <= 8 ? 2 : 3, best = cap + 1, d;
	const char *pick = NULL;
	bool tie = false;

	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		d = ml_edit_distance(word, names[i], cap);
		if (d < best) {
			best = d;
			pick = names[i];
			tie = false;
		} else if (d == best && pick && strcmp(pick, names[i]) != 0) {
			tie = true;
		}
	}
	return best <= cap && !tie ? pick : NULL;
}
