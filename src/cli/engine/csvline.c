/* csvline.c - lines and CSV fields of the files the CLI reads (see
 * csvline.h): one reader for --input and for fit's --data. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/csvline.h"

int ml_csv_split(char *line, char **f, size_t max, size_t *nf)
{
	char *p = line, *w;
	size_t n = 0;

	for (;;) {
		if (n == max)
			return -1;
		if (*p == '"') {
			f[n++] = w = ++p;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			if (*p != ',' && *p != '\0')
				return -1;
			*w = '\0';
		} else {
			f[n++] = p;
			p += strcspn(p, ",");
		}
		if (*p == '\0')
			break;
		*p++ = '\0';
	}
	*nf = n;
	return 0;
}

int ml_read_line(FILE *f, char **line, size_t *cap, size_t *len)
{
	size_t n = 0;
	int ch;

	for (;;) {
		ch = getc(f);
		if (ch == EOF)
			break;
		if (n + 1 >= *cap) {
			size_t nc = *cap ? 2 * *cap : 256;
			char *p;

			if (n >= ML_LINE_MAX)
				return -2;
			if (nc > ML_LINE_MAX + 1)
				nc = ML_LINE_MAX + 1;
			p = realloc(*line, nc);
			if (p == NULL) {
				errno = ENOMEM;
				return -1;
			}
			*line = p;
			*cap = nc;
		}
		(*line)[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	if (ch == EOF && ferror(f))
		return -1;
	if (n == 0)
		return 0;
	(*line)[n] = '\0';
	*len = n;
	return 1;
}
