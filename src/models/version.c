/* version.c - ml_version(): the library's version, from mcastlat.h. */
#include "mcastlat.h"

#define ML_STR(x)  #x
#define ML_XSTR(x) ML_STR(x)

static const char version[] = ML_XSTR(MCASTLAT_VERSION_MAJOR) "." ML_XSTR(
    MCASTLAT_VERSION_MINOR) "." ML_XSTR(MCASTLAT_VERSION_PATCH);

const char *ml_version(void)
{
	return version;
}
