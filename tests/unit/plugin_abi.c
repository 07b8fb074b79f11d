/* Plugin loader: ABI versions, missing ops, option validation. */
#include <errno.h>

#include "measure/loader.h"
#include "tap.h"

#define DIR "build/tests/plugins/"

static void refused(const char *file, const char *want1, const char *want2, const char *what)
{
	struct plugin p;
	char err[512] = "", path[256];
	int rc;

	snprintf(path, sizeof(path), DIR "%s", file);
	rc = plugin_open(path, &p, err, sizeof(err));

	ok(rc < 0 && strstr(err, file) && strstr(err, want1) && (!want2 || strstr(err, want2)),
	   "%s is refused: %s", what, err);
}

int main(void)
{
	struct plugin p;
	char err[512] = "", want[32];
	struct hb_kv *kv = NULL;
	unsigned n = 0;

	snprintf(want, sizeof(want), "ABI %d.%d", HB_ABI_MAJOR, HB_ABI_MINOR);
	refused("abi_major.so", want, "major versions differ", "a plugin of another ABI major");
	refused("abi_minor.so", want, "newer", "a plugin of a newer ABI minor");
	refused("no_reap.so", "required op", NULL, "an engine without reap()");
	refused("no_symbol.so", "hbatest_plugin", NULL, "a shared object without the symbol");
	refused("missing.so", "cannot load", NULL, "a file that does not exist");
	refused("short_desc.so", "descriptor is truncated", NULL,
		"a descriptor that ends before its options");
	ok(plugin_open(DIR "short_probe.so", &p, err, sizeof(err)) == 0,
	   "a probe whose ops leave struct_size 0 loads, as 1.x ones did (%s)", err);
	plugin_close(&p);
	refused("opt_type.so", "option 'shape' has type 99", NULL,
		"an option of a type plugin.h does not have");
	refused("step_key_name.so", "its name 'tags' is a step key", NULL,
		"a plugin named as a step key");
	ok(plugin_open(DIR "numa_probe.so", &p, err, sizeof(err)) == 0,
	   "a probe named as a step key (numa) loads: it takes no options from a step (%s)", err);
	plugin_close(&p);
	refused("odd_name.so", "space or control character", NULL, "a name with a space and a newline");

	ok(plugin_open(DIR "good.so", &p, err, sizeof(err)) == 0 &&
	   !strcmp(p.desc->name, "good"), "a valid plugin loads (%s)", err);

	struct hb_kv in1[] = { { "flag", "true" }, { "chunk", "64k" } };
	ok(plugin_opts_resolve(&p, in1, 2, &kv, &n, err, sizeof(err)) == 0 && n == 3 &&
	   !strcmp(hb_opt_str(kv, n, "flag"), "1") && !strcmp(hb_opt_str(kv, n, "chunk"), "65536") &&
	   !strcmp(hb_opt_str(kv, n, "count"), "3"),
	   "options are normalised and defaults filled in");
	plugin_opts_free(kv, n);

	struct hb_kv in2[] = { { "flagg", "true" } };
	ok(plugin_opts_resolve(&p, in2, 1, &kv, &n, err, sizeof(err)) < 0 &&
	   strstr(err, "unknown option 'flagg'") && strstr(err, "flag, count, chunk, mode"),
	   "an unknown option is refused with the list of known ones (%s)", err);

	struct hb_kv in3[] = { { "count", "many" } };
	ok(plugin_opts_resolve(&p, in3, 1, &kv, &n, err, sizeof(err)) < 0 &&
	   strstr(err, "'count' wants a whole number"), "a value of the wrong type is refused (%s)", err);

	struct hb_kv in4[] = { { "chunk", "4q" } };
	ok(plugin_opts_resolve(&p, in4, 1, &kv, &n, err, sizeof(err)) < 0 &&
	   strstr(err, "size"), "a bad size string is refused (%s)", err);
	plugin_close(&p);

	struct hb_kv fast[] = { { "mode", "fast" } }, bad[] = { { "mode", "warp" } };

	ok(plugin_open(DIR "checked.so", &p, err, sizeof(err)) == 0, "an engine with check() loads");
	ok(plugin_opts_resolve(&p, fast, 1, &kv, &n, err, sizeof(err)) == 0 &&
	   plugin_opts_check(&p, kv, n, err, sizeof(err)) == 0, "check() passes a good value");
	plugin_opts_free(kv, n);
	err[0] = '\0';
	ok(plugin_opts_resolve(&p, bad, 1, &kv, &n, err, sizeof(err)) == 0 &&
	   plugin_opts_check(&p, kv, n, err, sizeof(err)) == -EINVAL &&
	   !strcmp(err, "checked: mode 'warp' is not fast or slow"),
	   "check() refuses a bad one, the message prefixed with the engine (%s)", err);
	plugin_opts_free(kv, n);
	plugin_close(&p);

	err[0] = '\0';
	ok(plugin_open(DIR "old_minor.so", &p, err, sizeof(err)) == 0,
	   "an ABI 1.1 engine (its ops end before check) still loads (%s)", err);
	ok(plugin_opts_resolve(&p, bad, 1, &kv, &n, err, sizeof(err)) == 0 &&
	   plugin_opts_check(&p, kv, n, err, sizeof(err)) == 0,
	   "and the core reads no check() past the ops' struct_size");
	plugin_opts_free(kv, n);
	plugin_close(&p);

	char big[2048];	/* room for whatever lies past check()'s buffer */

	ok(plugin_open(DIR "unterminated.so", &p, err, sizeof(err)) == 0 &&
	   plugin_opts_check(&p, NULL, 0, big, sizeof(big)) == -EINVAL &&
	   strlen(big) == strlen("unterminated: ") + 511 && big[strlen(big) - 1] == 'A',
	   "a check() that leaves its err without a NUL: its 511 bytes, nothing past them");
	plugin_close(&p);
	return tap_done();
}
