/* status.c - status words and diagnostics (see include/mcastlat/status.h). */
#include <stdarg.h>
#include <stdio.h>

#include "mcastlat/status.h"

const char *ml_status_word(enum ml_status st)
{
	switch (st) {
	case ML_OK:
		return "ok";
	case ML_EINVAL:
		return "invalid";
	case ML_SATURATED:
		return "saturated";
	case ML_ENOCONV:
		return "no-convergence";
	case ML_ENOMEM:
		return "no-memory";
	case ML_OVERFLOW:
		return "overflow";
	case ML_DEADLOCK:
		return "deadlock";
	case ML_EUNIDENT:
		return "unidentifiable";
	}
	return "invalid";
}

enum ml_status ml_diag_set(struct ml_diag *d, const char *param,
			   const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return ML_EINVAL;
	d->param = param;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return ML_EINVAL;
}
