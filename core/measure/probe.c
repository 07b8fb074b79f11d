/* Probes: collect the test bed's facts through the probe plugins. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"

struct emit_ctx {
	struct facts *f;
	const char *target, *probe;
};

/* --probe-opt: the specs as given, then per probe the options checked */
static const char **opt_specs;
static unsigned nopt_specs;
static struct probe_opts {
	const char *probe;	/* the plugin's name */
	struct hb_kv *kv;	/* malloc'd, keys and values too */
	unsigned n;
} *popts;
static unsigned npopts;

const char *probe_root(void)
{
	const char *r = getenv("HBATEST_SYSFS_ROOT");

	return r && *r ? r : "/";
}

int probe_option_add(const char *spec)
{
	const char *dot = strchr(spec, '.'), *eq = strchr(spec, '='), **s;

	if (!dot || !eq || dot == spec || eq < dot + 2 || !eq[1])
		return -EINVAL;
	s = realloc(opt_specs, (nopt_specs + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	opt_specs = s;
	opt_specs[nopt_specs++] = spec;
	return 0;
}

const struct hb_kv *probe_options(const char *name, unsigned *n)
{
	for (unsigned i = 0; i < npopts; i++)
		if (!strcmp(popts[i].probe, name)) {
			*n = popts[i].n;
			return popts[i].kv;
		}
	*n = 0;
	return NULL;
}

/* The names of the probes loaded, "a, b, c", for a message. */
static void probe_names(char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < plugins_count() && at < len; i++)
		if (plugins_at(i)->desc->kind == HB_PLUGIN_PROBE)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       plugins_at(i)->desc->name);
}

/* The options of probe p: the entry, made when it has none yet. */
static struct probe_opts *probe_opts_of(const struct plugin *p)
{
	struct probe_opts *o;

	for (unsigned i = 0; i < npopts; i++)
		if (!strcmp(popts[i].probe, p->desc->name))
			return &popts[i];
	o = realloc(popts, (npopts + 1) * sizeof(*o));
	if (!o)
		return NULL;
	popts = o;
	popts[npopts] = (struct probe_opts){ p->desc->name, NULL, 0 };
	return &popts[npopts++];
}

/* One spec checked and kept: its value normalised by the option's type. */
static int probe_option_check(const char *spec, char *err, size_t len)
{
	const char *dot = strchr(spec, '.'), *eq = strchr(spec, '=');
	char name[128], key[128], msg[1024], names[1024];
	struct hb_kv in = { key, eq + 1 }, *all, *kv;
	const struct plugin *p;
	struct probe_opts *o;
	unsigned n;

	snprintf(name, sizeof(name), "%.*s", (int)(dot - spec), spec);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	if (!(p = plugins_find(name, HB_PLUGIN_PROBE))) {
		probe_names(names, sizeof(names));
		snprintf(err, len, "--probe-opt %s: no probe '%s' (probes: %s)", spec, name,
			 names[0] ? names : "none found");
		return -EINVAL;
	}
	if (plugin_opts_resolve(p, &in, 1, &all, &n, msg, sizeof(msg)) < 0) {
		snprintf(err, len, "--probe-opt %s: %s", spec, msg);
		return -EINVAL;
	}
	o = probe_opts_of(p);
	for (unsigned i = 0; o && i < o->n; i++)
		if (!strcmp(o->kv[i].key, key)) {
			snprintf(err, len, "--probe-opt %s.%s is given twice: give it once", name, key);
			plugin_opts_free(all, n);
			return -EINVAL;
		}
	if (o && (kv = realloc(o->kv, (o->n + 1) * sizeof(*kv))))
		o->kv = kv;
	else
		kv = NULL;
	for (unsigned i = 0; kv && i < n; i++)
		if (!strcmp(all[i].key, key)) {	/* the given one; defaults dropped */
			o->kv[o->n++] = all[i];
			all[i] = all[--n];
			break;
		}
	plugin_opts_free(all, n);
	return kv ? 0 : -ENOMEM;
}

int probe_options_check(char *err, size_t len)
{
	for (unsigned i = 0; i < nopt_specs; i++)
		if (probe_option_check(opt_specs[i], err, len) < 0)
			return -EINVAL;
	return 0;
}

static void emit(void *vctx, const char *key, const char *value)
{
	struct emit_ctx *c = vctx;
	struct fact *v;

	if (!key || !*key) {	/* a fact needs a name: probes never fail a run */
		log_warn("probe '%s' gave a fact without a name (value '%s'): left out",
			 c->probe, value ? value : "");
		return;
	}
	v = realloc(c->f->v, (c->f->n + 1) * sizeof(*v));
	if (!v)
		return;
	c->f->v = v;
	v[c->f->n].target = c->target ? strdup(c->target) : NULL;
	v[c->f->n].probe = strdup(c->probe);
	v[c->f->n].key = strdup(key);
	v[c->f->n++].value = strdup(value ? value : "");
}

/* The block device for probes, as "/dev/NAME": a /dev path names it; a file
 * or a device node elsewhere is found through its device numbers. */
static int device_of(const char *root, const char *target, char *out, size_t len)
{
	char link[PATH_MAX + 64], real[PATH_MAX];
	const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	struct stat st;
	dev_t dev;

	snprintf(link, sizeof(link), "%s/sys/class/block/%s", strcmp(root, "/") ? root : "", base);
	if (!strncmp(target, "/dev/", 5) && access(link, F_OK) == 0) {
		snprintf(out, len, "/dev/%s", base);
		return 0;
	}
	if (stat(target, &st) < 0) {	/* a file not laid out yet: its folder's device */
		char dir[PATH_MAX], *slash;

		snprintf(dir, sizeof(dir), "%s", target);
		slash = strrchr(dir, '/');
		if (!slash)
			return -ENOENT;
		slash[slash == dir] = '\0';	/* "/x" -> "/", "/a/x" -> "/a" */
		if (stat(dir, &st) < 0)
			return -ENOENT;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", strcmp(root, "/") ? root : "",
		 major(dev), minor(dev));
	if (!realpath(link, real))
		return -ENOENT;
	snprintf(out, len, "/dev/%s", strrchr(real, '/') + 1);
	return 0;
}

const char *facts_find(const struct facts *f, const char *target, const char *probe,
		       const char *key)
{
	for (unsigned i = 0; i < f->n; i++) {
		const struct fact *x = &f->v[i];

		if ((!target ? !x->target : x->target && !strcmp(x->target, target)) &&
		    !strcmp(x->probe, probe) && !strcmp(x->key, key))
			return x->value;
	}
	return NULL;
}

void facts_print(const struct facts *f, FILE *out)
{
	const char *target = "", *probe = "";

	for (unsigned i = 0; i < f->n; i++) {
		const struct fact *x = &f->v[i];
		const char *t = x->target ? x->target : "host";

		if (strcmp(t, target)) {
			fprintf(out, "%s%s\n", i ? "\n" : "", t);
			target = t;
			probe = "";
		}
		fprintf(out, "  %-10s %-28s %s\n", strcmp(x->probe, probe) ? x->probe : "",
			x->key, x->value);
		probe = x->probe;
	}
	if (!f->n) {
		unsigned probes = 0;

		for (unsigned i = 0; i < plugins_count(); i++)
			probes += plugins_at(i)->desc->kind == HB_PLUGIN_PROBE;
		if (probes)
			fprintf(out, "(no facts: %u probe plugins found nothing under %s)\n", probes,
				probe_root());
		else
			fprintf(out, "(no facts: no probe plugins found)\n");
	}
}

void facts_free(struct facts *f)
{
	for (unsigned i = 0; i < f->n; i++) {
		free(f->v[i].target);
		free(f->v[i].probe);
		free(f->v[i].key);
		free(f->v[i].value);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* The sample() op of probe p (NULL: it has none, or an older plugin's ops
 * end before it). */
static hb_probe_fn sample_op(const struct plugin *p)
{
	const struct hb_probe_ops *ops = p->desc->ops;

	return p->desc->kind == HB_PLUGIN_PROBE && HB_OPS_HAS(ops, sample) ? ops->sample : NULL;
}

bool probe_can_sample(const struct plugin *p)
{
	return sample_op(p) != NULL;
}

/* The collect() op of probe p (NULL: p is not a probe) */
static hb_probe_fn collect_op(const struct plugin *p)
{
	return p->desc->kind == HB_PLUGIN_PROBE ?
		((const struct hb_probe_ops *)p->desc->ops)->collect : NULL;
}

/* op_of(p) of each probe p: the host's first (those not per target, or
 * also for the host), then the per-target ones for each target that lies on
 * a block device; their facts into out. say: log a target that does not. */
static void probe_walk(char *const *targets, unsigned ntargets, struct facts *out,
		       hb_probe_fn (*op_of)(const struct plugin *), bool say)
{
	const char *root = probe_root();
	char dev[PATH_MAX + 8];

	memset(out, 0, sizeof(*out));
	for (int t = -1; t < (int)ntargets; t++) {	/* -1: the host */
		if (t >= 0 && device_of(root, targets[t], dev, sizeof(dev)) < 0) {
			if (say)
				log_debug("probe: '%s' is not on a block device here", targets[t]);
			continue;
		}
		for (unsigned i = 0; i < plugins_count(); i++) {
			const struct plugin *p = plugins_at(i);
			hb_probe_fn op = op_of(p);	/* NULL for an engine: its ops are not a probe's */
			unsigned flags = op ? ((const struct hb_probe_ops *)p->desc->ops)->flags : 0;
			bool per_target = flags & HB_PROBE_PER_TARGET;
			struct emit_ctx c = { out, t >= 0 ? targets[t] : NULL, p->desc->name };
			unsigned n;
			const struct hb_kv *o = probe_options(p->desc->name, &n);

			if (op && (t >= 0 ? per_target : !per_target || (flags & HB_PROBE_HOST)))
				op(root, t >= 0 ? dev : NULL, o, n, emit, &c);
		}
	}
}

void probe_collect(char *const *targets, unsigned ntargets, struct facts *out)
{
	probe_walk(targets, ntargets, out, collect_op, true);
}

void probe_sample(char *const *targets, unsigned ntargets, struct facts *out)
{
	probe_walk(targets, ntargets, out, sample_op, false);
}
