/*
 * csvline.h - lines and CSV fields of the files the CLI reads (--input
 * batch files, fit's --data files), with the limits they share.
 */
#ifndef MCASTLAT_CLI_CSVLINE_H
#define MCASTLAT_CLI_CSVLINE_H

#include <stddef.h>
#include <stdio.h>

/* The longest line of a file read, its line end included. */
#define ML_LINE_MAX 65536

/*
 * Read one line, with its end, into *line (grown as needed, never
 * beyond ML_LINE_MAX + 1 bytes): 1 a line (*len bytes, NUL bytes
 * included, then a NUL), 0 end of file, -1 a read error (errno set), -2
 * a line longer than ML_LINE_MAX.
 */
int ml_read_line(FILE *f, char **line, size_t *cap, size_t *len);

/*
 * Split one CSV line in place (RFC 4180 quotes) into at most max fields
 * f[0..*nf); -1 on bad quoting or more than max fields.
 */
int ml_csv_split(char *line, char **f, size_t max, size_t *nf);

#endif
