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

const char *probe_root(void)
{
	const char *r = getenv("HBATEST_SYSFS_ROOT");

	return r && *r ? r : "/";
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

void probe_collect(char *const *targets, unsigned ntargets, struct facts *out)
{
	const char *root = probe_root();

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < plugins_count(); i++) {
		const struct plugin *p = plugins_at(i);
		const struct hb_probe_ops *ops = p->desc->ops;
		struct emit_ctx c = { out, NULL, p->desc->name };

		if (p->desc->kind == HB_PLUGIN_PROBE &&
		    (!(ops->flags & HB_PROBE_PER_TARGET) || (ops->flags & HB_PROBE_HOST)))
			ops->collect(root, NULL, NULL, 0, emit, &c);
	}
	for (unsigned t = 0; t < ntargets; t++) {
		char dev[PATH_MAX + 8];

		if (device_of(root, targets[t], dev, sizeof(dev)) < 0) {
			log_debug("probe: '%s' is not on a block device here", targets[t]);
			continue;
		}
		for (unsigned i = 0; i < plugins_count(); i++) {
			const struct plugin *p = plugins_at(i);
			const struct hb_probe_ops *ops = p->desc->ops;
			struct emit_ctx c = { out, targets[t], p->desc->name };

			if (p->desc->kind == HB_PLUGIN_PROBE && (ops->flags & HB_PROBE_PER_TARGET))
				ops->collect(root, dev, NULL, 0, emit, &c);
		}
	}
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

void probe_sample(char *const *targets, unsigned ntargets, struct facts *out)
{
	const char *root = probe_root();
	char dev[PATH_MAX + 8];

	memset(out, 0, sizeof(*out));
	for (int t = -1; t < (int)ntargets; t++) {	/* -1: the host */
		if (t >= 0 && device_of(root, targets[t], dev, sizeof(dev)) < 0)
			continue;
		for (unsigned i = 0; i < plugins_count(); i++) {
			const struct plugin *p = plugins_at(i);
			unsigned flags = ((const struct hb_probe_ops *)p->desc->ops)->flags;
			bool per_target = flags & HB_PROBE_PER_TARGET;
			struct emit_ctx c = { out, t >= 0 ? targets[t] : NULL, p->desc->name };
			hb_probe_fn op = sample_op(p);

			if (op && (t >= 0 ? per_target : !per_target || (flags & HB_PROBE_HOST)))
				op(root, t >= 0 ? dev : NULL, NULL, 0, emit, &c);
		}
	}
}
