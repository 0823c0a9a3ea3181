/*
 * shortest.h - the shortest decimal text of a double that reads back
 * (strtod) as the same double: the CSV and JSON form of a number.
 */
#ifndef MCASTLAT_CLI_SHORTEST_H
#define MCASTLAT_CLI_SHORTEST_H

#include <stddef.h>

/*
 * Write the shortest round-trip form of x into out (at least 32 bytes)
 * and return its length.  Layout as Python's repr and printf's %g: plain
 * digits for 1e-4 <= |x| < 1e16 (5000040, 1233.917, 0.0001), otherwise
 * d.ddde+XX (1e-05, 1e+16), so a fixed form never shows a digit that is
 * not significant; NaN is "nan", infinities "inf"/"-inf", negative zero
 * "-0".  Among several shortest forms the one nearest x.
 */
size_t ml_fmt_shortest(char *out, double x);

/* The same digits as (at most 17) decimal digits and exponent:
 * x = 0.d1d2...dn * 10^(e10+1); returns n, or 0 for 0, NaN and inf. */
int ml_shortest_digits(double x, char *dig, int *e10);

/* v in decimal (exactly, any long long); returns the length. */
size_t ml_fmt_int(char *out, long long v);

#endif
