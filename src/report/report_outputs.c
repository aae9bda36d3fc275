/* report_outputs.c — a command's CSV, JSON and HTML reports together:
 * opened before the work, committed together or dropped together
 * (report.h). */
#include "report.h"

#include <string.h>

int ub_outputs_open(struct ub_outputs *o, const char *csv, int append,
		    const char *json, const char *html, struct ub_error *err)
{
	memset(o, 0, sizeof *o);
	int s = csv ? ub_csv_open(&o->csv, csv, append, err) : 0;
	o->has_csv = csv && !s;
	if (!s && json) {
		s = ub_json_open(&o->json, json, err);
		o->has_json = !s;
	}
	if (!s && html) {
		s = ub_outfile_open(&o->html, html, err);
		o->has_html = !s;
	}
	if (s)
		ub_outputs_abort(o);
	return s;
}

int ub_outputs_add(struct ub_outputs *o, const struct ub_result *res,
		   const char *label, struct ub_error *err)
{
	if (o->has_csv)
		ub_csv_add(&o->csv, res);
	if (o->has_json)
		ub_json_add(&o->json, res, label);
	return o->has_html ? ub_report_html(o->html.f, res, err) : 0;
}

int ub_outputs_commit(struct ub_outputs *o, struct ub_error *err)
{
	int s = o->has_csv ? ub_csv_commit(&o->csv, err) : 0;
	o->has_csv = 0;
	if (!s && o->has_json)
		s = ub_json_commit(&o->json, err);
	o->has_json = 0;
	if (!s && o->has_html)
		s = ub_outfile_commit(&o->html, err);
	o->has_html = 0;
	ub_outputs_abort(o);
	return s;
}

int ub_outputs_finish(struct ub_outputs *o, int s, const struct ub_result *res,
		      struct ub_error *err)
{
	if (!s)
		s = ub_outputs_add(o, res, NULL, err);
	if (!s)
		return ub_outputs_commit(o, err);
	ub_outputs_abort(o);
	return s;
}

void ub_outputs_abort(struct ub_outputs *o)
{
	if (o->has_csv)
		ub_csv_abort(&o->csv);
	if (o->has_json)
		ub_json_abort(&o->json);
	if (o->has_html)
		ub_outfile_abort(&o->html);
	o->has_csv = o->has_json = o->has_html = 0;
}

int ub_outputs_on_stdout(const struct ub_outputs *o)
{
	return (o->has_csv && o->csv.o.is_stdout) ||
	       (o->has_json && o->json.o.is_stdout) ||
	       (o->has_html && o->html.is_stdout);
}
