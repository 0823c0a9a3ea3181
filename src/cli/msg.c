/* msg.c - one-line error and warning messages (see msg.h). */
#include <stdarg.h>

#include "cli/msg.h"

static void vmsg(struct ml_ctx *ctx, const char *prefix, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));

static void vmsg(struct ml_ctx *ctx, const char *prefix, const char *fmt,
		 va_list ap)
{
	fputs(prefix, ctx->err);
	vfprintf(ctx->err, fmt, ap);
	fputc('\n', ctx->err);
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
