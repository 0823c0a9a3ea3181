/*
 * msg.c - one-line error and warning messages (see msg.h): the only place
 * where text from the user reaches the terminal in a message, so the only
 * place that escapes it (control characters, malformed UTF-8) and cuts
 * long values short.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/msg.h"

/* Length of the valid UTF-8 sequence at s that is a printable character
 * (not a C1 control, U+0080..U+009F), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned long cp;

	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1Fu;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0Fu;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0u) != 0x80u)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, C1 controls. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ||
	    (cp >= 0x80 && cp <= 0x9F))
		return 0;
	return n;
}

/* Write s to f with every non-printable byte escaped: \n, \t, \r, \xHH. */
static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n;

		if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if (*p == '\r') {
			fputs("\\r", f);
		} else if (*p < 0x20 || *p == 0x7F) {
			fprintf(f, "\\x%02x", *p);
		} else if (*p >= 0x80) {
			n = utf8_len(p);
			if (n == 0) {
				fprintf(f, "\\x%02x", *p);
			} else {
				fwrite(p, 1, n, f);
				p += n;
				continue;
			}
		} else {
			fputc(*p, f);
		}
		p++;
	}
}

static void vmsg(struct ml_ctx *ctx, const char *prefix, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));

static void vmsg(struct ml_ctx *ctx, const char *prefix, const char *fmt,
		 va_list ap)
{
	char small[512], *buf = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (buf)
			vsnprintf(buf, (size_t)n + 1, fmt, aq);
		else
			buf = small; /* cut short rather than lost */
	}
	va_end(aq);
	fputs(prefix, ctx->err);
	put_escaped(ctx->err, n < 0 ? "(message cannot be formatted)" : buf);
	fputc('\n', ctx->err);
	if (buf != small)
		free(buf);
}

void ml_err(struct ml_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(ctx, "mcastlat: ", fmt, ap);
	va_end(ap);
}

void ml_warn(struct ml_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(ctx, "mcastlat: warning: ", fmt, ap);
	va_end(ap);
}

int ml_usage_err(struct ml_ctx *ctx, const char *cmd, const char *opt,
		     const char *msg)
{
	if (opt)
		ml_err(ctx, "%s: --%s: %s", cmd, opt, msg);
	else
		ml_err(ctx, "%s: %s", cmd, msg);
	return ML_EXIT_USAGE;
}

const char *ml_quote(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), max = len > 6 ? len - 6 : 0;
	bool cut = n > max;

	if (len < 3) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	if (cut) {
		n = max;
		/* Not in the middle of a UTF-8 sequence. */
		while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u)
			n--;
	}
	buf[0] = '\'';
	memcpy(buf + 1, s, n);
	strcpy(buf + 1 + n, cut ? "...'" : "'");
	return buf;
}
