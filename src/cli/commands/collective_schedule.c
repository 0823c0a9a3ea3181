/*
 * collective_schedule.c - `mcastlat collective --schedule`: every
 * message of one broadcast, as the engine times it, printed as CSV or
 * a table (mcastlat-collective(1)).
 */
#include <stdio.h>

#include "cli/commands/collective_parts.h"
#include "mcastlat/collective.h"

static const char *const chan_text[] = {"socket", "node", "net"};

struct sched_out {
	FILE *f;
	int csv;
};

static int print_msg(void *arg, const struct ml_coll_msg *m)
{
	struct sched_out *o = arg;

	if (o->csv)
		fprintf(o->f, "%lld,%lld,%lld,%lld,%s,%.17g,%.17g,%.17g\n",
			m->src, m->dst, m->segment, m->bytes,
			chan_text[m->channel], m->posted, m->start,
			m->arrival);
	else
		fprintf(o->f,
			"%8lld %8lld %8lld %10lld %7s %12.6g %12.6g "
			"%12.6g\n",
			m->src, m->dst, m->segment, m->bytes,
			chan_text[m->channel], m->posted, m->start,
			m->arrival);
	return ferror(o->f) ? 1 : 0;
}

int ml_collective_print_schedule(FILE *f, int csv, const char *chosen,
				 const struct ml_collective_params *p,
				 struct ml_collective_result *r)
{
	struct sched_out so = {f, csv};

	fprintf(f,
		"# algorithm=%s ranks=%lld msg=%lld latency=%.17g "
		"messages=%lld\n",
		chosen, p->ranks, p->msg, r->latency, r->messages);
	if (csv)
		fprintf(f, "src,dst,segment,bytes,channel,posted,start,"
			   "arrival\n");
	else
		fprintf(f, "%8s %8s %8s %10s %7s %12s %12s %12s\n", "src",
			"dst", "segment", "bytes", "channel", "posted[us]",
			"start[us]", "arrival[us]");
	if (ml_collective_schedule(p, print_msg, &so, r) != ML_OK ||
	    fflush(f) != 0 || ferror(f))
		return -1;
	return 0;
}
