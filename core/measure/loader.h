/* The plugin loader: finds shared objects on the search path, checks their
 * descriptor against the ABI, and validates the options a plan gives them. */
#ifndef HB_PLUGIN_LOADER_H
#define HB_PLUGIN_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "hbatest/plugin.h"

struct plugin {
	const struct hb_plugin *desc;
	char *path;
	void *handle;
};

/* Extra folder from --plugin-path (colon-separated); call before plugins_load. */
void plugins_set_path(const char *path);
/* Load every plugin found; a broken one is reported and skipped. */
int plugins_load(void);
void plugins_unload(void);
unsigned plugins_count(void);
const struct plugin *plugins_at(unsigned i);
const struct plugin *plugins_find(const char *name, enum hb_plugin_kind kind);
const struct plugin *plugins_find_any(const char *name);
/* Load one file; returns 0 or -errno with a message in err. */
int plugin_open(const char *path, struct plugin *out, char *err, size_t errlen);
/* Undo plugin_open (for one not handed to the list plugins_load keeps). */
void plugin_close(struct plugin *p);
const char *plugin_kind_name(enum hb_plugin_kind kind);
const char *plugin_opt_type_name(enum hb_opt_type type);

/* Whether ops (struct_size bytes of it, from a plugin of any 1.x minor) has
 * the optional op f: the core reads no field past what the plugin built. */
#define HB_OPS_HAS(ops, f) ((ops)->struct_size >= offsetof(__typeof__(*(ops)), f) + \
			    sizeof((ops)->f) && (ops)->f)

/* Options as a plan gives them: name -> text. Check each against the table,
 * normalise, and fill defaults; out is malloc'd (keys and values too). */
int plugin_opts_resolve(const struct plugin *p, const struct hb_kv *in, unsigned nin,
			struct hb_kv **out, unsigned *nout, char *err, size_t errlen);
void plugin_opts_free(struct hb_kv *kv, unsigned n);
/* The engine's own check of resolved options (its check op, ABI 1.2), for the
 * dry pass: 0, or -EINVAL with "ENGINE: message" in err. */
int plugin_opts_check(const struct plugin *p, const struct hb_kv *kv, unsigned n,
		      char *err, size_t errlen);

#endif
