/*
 * suggest.h - "did you mean": the nearest of a set of names to a word
 * that is not one of them, by edit distance.
 */
#ifndef MCASTLAT_CLI_SUGGEST_H
#define MCASTLAT_CLI_SUGGEST_H

#include <stddef.h>

/*
 * Optimal string alignment distance (Levenshtein plus transposition of
 * neighbours: "gropu" is 1 from "group"), capped: any distance above
 * cap is reported as cap + 1.  Words longer than 63 bytes count as far.
 */
int ml_edit_distance(const char *a, const char *b, int cap);

/*
 * The name of names[0..n-1] nearest to word when it is near enough to be
 * a typo (distance 1 for words up to 4 bytes, 2 up to 8, else 3) and no
 * other name is as near; NULL otherwise.  NULL entries are skipped.
 */
const char *ml_suggest(const char *word, const char *const *names, size_t n);

#endif
