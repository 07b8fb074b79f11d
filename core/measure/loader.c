/* The plugin loader (core/hbatest/plugin.h is the ABI it loads). */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/log.h"
#include "base/paths.h"
#include "measure/loader.h"
#include "measure/step_keys.h"
#include "base/util.h"

/* Under ASan a plugin stays mapped after dlclose(): LeakSanitizer reports at
 * exit, and a stack through an unmapped object reads "<unknown module>", which
 * says nothing and cannot be matched by tests/lsan.supp. A plugin's own statics
 * are then still reachable at exit: tests/unit/sim_wear.c unloads sim.so for
 * real to prove it frees them. */
#ifdef __SANITIZE_ADDRESS__
#define PLUGIN_DLFLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
#else
#define PLUGIN_DLFLAGS (RTLD_NOW | RTLD_LOCAL)
#endif

static struct plugin *plugins;
static unsigned nplugins;
static char *extra_path;

void plugins_set_path(const char *path)
{
	free(extra_path);
	extra_path = path ? strdup(path) : NULL;
}

const char *plugin_kind_name(enum hb_plugin_kind kind)
{
	return kind == HB_PLUGIN_ENGINE ? "engine" : kind == HB_PLUGIN_PROBE ? "probe" : "?";
}

const char *plugin_opt_type_name(enum hb_opt_type type)
{
	static const char *const names[] = { "?", "bool", "int", "size", "string", "number" };

	return type >= HB_OPT_BOOL && type <= HB_OPT_DOUBLE ? names[type] : "?";
}

static int check_ops(const struct hb_plugin *d, char *err, size_t len, const char *path)
{
	if (d->kind == HB_PLUGIN_ENGINE) {
		const struct hb_engine_ops *o = d->ops;

		if (!o || o->struct_size < offsetof(struct hb_engine_ops, target_size) ||
		    !o->open || !o->submit || !o->reap || !o->close) {
			snprintf(err, len, "plugin '%s' (%s): engine descriptor lacks a "
				 "required op (open, submit, reap, close)", d->name, path);
			return -EINVAL;
		}
	} else if (d->kind == HB_PLUGIN_PROBE) {
		const struct hb_probe_ops *o = d->ops;

		if (!o || !o->collect) {	/* flags is 1.0's: no struct_size asked of a probe */
			snprintf(err, len, "plugin '%s' (%s): probe descriptor lacks "
				 "collect()", d->name, path);
			return -EINVAL;
		}
	} else {
		snprintf(err, len, "plugin '%s' (%s): unknown kind %d", d->name, path, d->kind);
		return -EINVAL;
	}
	for (const struct hb_option *o = d->options; o && o->name; o++)
		if (o->type < HB_OPT_BOOL || o->type > HB_OPT_DOUBLE) {
			snprintf(err, len, "plugin '%s' (%s): option '%s' has type %d, not one "
				 "of plugin.h's", d->name, path, o->name, (int)o->type);
			return -EINVAL;
		}
	return 0;
}

/* A plan names an engine (engine = "name") and gives its options as a step
 * key (name = {...}): an engine named as one of the step's own keys would
 * take it over (a probe takes no options from a step). A name is printed in
 * tables and stored: no spaces or control characters, 64 bytes at most
 * (names of 1.x plugins such as "spdk.nvme" stay valid). */
static bool plugin_name_ok(const struct hb_plugin *d, char *err, size_t len, const char *path)
{
	const char *name = d->name;
	size_t n = strlen(name);

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c <= ' ' || *c == 0x7f)
			n = SIZE_MAX;
	if (n > 64) {
		snprintf(err, len, "plugin '%s': its name has a space or control character, or "
			 "is over 64 bytes", path);
		return false;
	}
	if (d->kind == HB_PLUGIN_ENGINE && step_key_builtin(name)) {
		snprintf(err, len, "plugin '%s': its name '%s' is a step key, which its options "
			 "would take over in a plan", path, name);
		return false;
	}
	return true;
}

int plugin_open(const char *path, struct plugin *out, char *err, size_t len)
{
	const struct hb_plugin *d;
	void *h = dlopen(path, PLUGIN_DLFLAGS);

	if (!h) {
		snprintf(err, len, "cannot load plugin '%s': %s", path, dlerror());
		return -ENOEXEC;
	}
	d = dlsym(h, HB_PLUGIN_SYMBOL);
	if (!d) {
		snprintf(err, len, "'%s' is not an hbatest plugin: no symbol '%s'",
			 path, HB_PLUGIN_SYMBOL);
		goto reject;
	}
	if (d->abi_major != HB_ABI_MAJOR || d->abi_minor > HB_ABI_MINOR) {
		snprintf(err, len, "plugin '%s' was built for ABI %u.%u; this hbatest "
			 "has ABI %d.%d (%s)", path, d->abi_major, d->abi_minor,
			 HB_ABI_MAJOR, HB_ABI_MINOR,
			 d->abi_major != HB_ABI_MAJOR ? "major versions differ"
						      : "the plugin is newer");
		goto reject;
	}
	/* every field up to options is 1.0's: a smaller one ends before a field
	 * the core reads (fields appended later are read only when there) */
	if (d->struct_size < offsetof(struct hb_plugin, options) + sizeof(d->options)) {
		snprintf(err, len, "plugin '%s': descriptor is truncated: struct_size %u, "
			 "ABI %d.0's is %zu", path, d->struct_size, HB_ABI_MAJOR,
			 offsetof(struct hb_plugin, options) + sizeof(d->options));
		goto reject;
	}
	if (!d->name || !*d->name) {
		snprintf(err, len, "plugin '%s': descriptor has no name", path);
		goto reject;
	}
	if (!plugin_name_ok(d, err, len, path))
		goto reject;
	if (check_ops(d, err, len, path))
		goto reject;
	out->desc = d;
	out->path = strdup(path);
	out->handle = h;
	return 0;
reject:
	dlclose(h);
	return -EINVAL;
}

void plugin_close(struct plugin *p)
{
	if (p->handle)
		dlclose(p->handle);
	free(p->path);
	p->handle = NULL;
	p->path = NULL;
	p->desc = NULL;
}

static const struct plugin *already_loaded(const char *name)
{
	for (unsigned i = 0; i < nplugins; i++)
		if (strcmp(plugins[i].desc->name, name) == 0)
			return &plugins[i];
	return NULL;
}

/* Two plugins of one name: an earlier folder of the path wins (docs/plugin-abi.md), but
 * in one folder (first loaded from this folder: at or after from) the order
 * of the files' names would decide, silently, and a run stores only the
 * name: said, since the user must choose. */
static void shadowed(const struct plugin *first, const char *path, unsigned from)
{
	if (first >= plugins + from)
		log_warn("plugins '%s' and '%s' are both named '%s': '%s' is used", first->path,
			 path, first->desc->name, first->path);
	else
		log_debug("plugin '%s' at '%s' is shadowed", first->desc->name, path);
}

/* given: a folder the user named (--plugin-path, HBATEST_PLUGIN_PATH), whose
 * absence is worth a warning; the built-in folders may well not exist */
static void load_dir(const char *dir, bool given)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	unsigned from = nplugins;	/* the first one this folder adds */

	if (n < 0 && given)
		log_warn("plugin folder '%s' (--plugin-path or HBATEST_PLUGIN_PATH): %s", dir,
			 strerror(errno));

	for (int i = 0; i < n; i++) {
		const char *nm = list[i]->d_name;
		size_t l = strlen(nm);
		char path[PATH_MAX], err[512];
		const struct plugin *first;
		struct plugin p;

		if (l > 3 && strcmp(nm + l - 3, ".so") == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, nm);
			if (plugin_open(path, &p, err, sizeof(err)) < 0) {
				log_warn("%s", err);
			} else if ((first = already_loaded(p.desc->name))) {
				shadowed(first, path, from);
				plugin_close(&p);
			} else {
				struct plugin *np = realloc(plugins, (nplugins + 1) * sizeof(*np));

				if (np) {
					plugins = np;
					plugins[nplugins++] = p;
				} else {
					log_warn("plugin '%s': %s", path, strerror(ENOMEM));
					plugin_close(&p);
				}
			}
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

static void load_path_list(const char *list)
{
	char *copy = strdup(list), *save = NULL;

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		load_dir(d, true);
	free(copy);
}

static bool load_each(const char *dir, void *ctx)
{
	(void)ctx;
	load_dir(dir, false);
	return false;
}

int plugins_load(void)
{
	const char *env = getenv("HBATEST_PLUGIN_PATH");

	if (extra_path)
		load_path_list(extra_path);
	if (env && *env)
		load_path_list(env);
	paths_each(PATHS_PLUGINS, NULL, load_each, NULL);
	return 0;
}

void plugins_unload(void)
{
	for (unsigned i = 0; i < nplugins; i++)
		plugin_close(&plugins[i]);
	free(plugins);
	plugins = NULL;
	nplugins = 0;
	plugins_set_path(NULL);
}

unsigned plugins_count(void)
{
	return nplugins;
}

const struct plugin *plugins_at(unsigned i)
{
	return i < nplugins ? &plugins[i] : NULL;
}

const struct plugin *plugins_find(const char *name, enum hb_plugin_kind kind)
{
	for (unsigned i = 0; i < nplugins; i++)
		if (plugins[i].desc->kind == kind && strcmp(plugins[i].desc->name, name) == 0)
			return &plugins[i];
	return NULL;
}

const struct plugin *plugins_find_any(const char *name)
{
	for (unsigned i = 0; i < nplugins; i++)
		if (strcmp(plugins[i].desc->name, name) == 0)
			return &plugins[i];
	return NULL;
}

/* Normalise one value to the option's type; NULL when it does not parse. */
static char *opt_normalise(const struct hb_option *o, const char *v)
{
	uint64_t sz;
	char *end;

	switch (o->type) {
	case HB_OPT_BOOL:
		if (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes"))
			return strdup("1");
		if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no"))
			return strdup("0");
		return NULL;
	case HB_OPT_INT: {	/* "1000", or a whole number Lua wrote as 1000.0 or 1e3 */
		long long x;
		double d;

		errno = 0;
		x = strtoll(v, &end, 10);
		if (*v && !*end && !errno)
			return util_strdup_printf("%lld", x);
		d = strtod(v, &end);
		if (!*v || *end || d != floor(d) || fabs(d) > 9e18)
			return NULL;
		return util_strdup_printf("%lld", (long long)d);
	}
	case HB_OPT_SIZE:
		return util_parse_size(v, &sz) ? NULL
			: util_strdup_printf("%llu", (unsigned long long)sz);
	case HB_OPT_DOUBLE:
		strtod(v, &end);
		return *v && !*end ? strdup(v) : NULL;
	case HB_OPT_STRING:
		return strdup(v);
	}
	return NULL;
}

/* "a whole number", for a message */
static const char *opt_type_phrase(enum hb_opt_type type)
{
	static const char *const names[] = { "a value", "true or false", "a whole number",
					     "a size such as \"4k\"", "a string", "a number" };

	return type >= HB_OPT_BOOL && type <= HB_OPT_DOUBLE ? names[type] : names[0];
}

static const struct hb_option *opt_find(const struct plugin *p, const char *key)
{
	for (const struct hb_option *o = p->desc->options; o && o->name; o++)
		if (strcmp(o->name, key) == 0)
			return o;
	return NULL;
}

static void opts_known(const struct plugin *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct hb_option *o = p->desc->options; o && o->name && n < len; o++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", o->name);
	if (!n)
		snprintf(buf, len, "none");
}

int plugin_opts_resolve(const struct plugin *p, const struct hb_kv *in, unsigned nin,
			struct hb_kv **out, unsigned *nout, char *err, size_t len)
{
	const struct hb_option *o;
	struct hb_kv *kv;
	unsigned n = 0, cap = 0;
	char known[1024];	/* every option name of the biggest table (sim: 21) */

	for (o = p->desc->options; o && o->name; o++)
		cap++;
	kv = calloc(cap + 1, sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	for (unsigned i = 0; i < nin; i++) {
		if (!opt_find(p, in[i].key)) {
			opts_known(p, known, sizeof(known));
			snprintf(err, len, "%s: unknown option '%s' (it takes: %s)",
				 p->desc->name, in[i].key, known);
			goto fail;
		}
	}
	for (o = p->desc->options; o && o->name; o++) {
		const char *v = o->def;

		for (unsigned i = 0; i < nin; i++)
			if (strcmp(in[i].key, o->name) == 0)
				v = in[i].value;
		if (!v)
			continue;
		char *norm = opt_normalise(o, v);

		if (!norm) {
			snprintf(err, len, "%s: option '%s' wants %s, not '%s'",
				 p->desc->name, o->name, opt_type_phrase(o->type), v);
			goto fail;
		}
		kv[n].key = strdup(o->name);
		kv[n++].value = norm;
	}
	*out = kv;
	*nout = n;
	return 0;
fail:
	plugin_opts_free(kv, n);
	return -EINVAL;
}

void plugin_opts_free(struct hb_kv *kv, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free((char *)kv[i].key);
		free((char *)kv[i].value);
	}
	free(kv);
}

int plugin_opts_check(const struct plugin *p, const struct hb_kv *kv, unsigned n,
		      char *err, size_t len)
{
	const struct hb_engine_ops *ops = p->desc->ops;
	char msg[512] = "";
	int rc;

	if (p->desc->kind != HB_PLUGIN_ENGINE || !HB_OPS_HAS(ops, check))
		return 0;
	rc = ops->check(kv, n, msg, sizeof(msg));
	if (!rc)
		return 0;
	msg[sizeof(msg) - 1] = '\0';	/* a check() that filled it without one */
	snprintf(err, len, "%s: %s", p->desc->name, msg[0] ? msg : "options refused");
	return rc < 0 ? rc : -EINVAL;
}
