/* skeleton probe: the smallest complete probe, to copy for a new one
 * (docs/plugin-abi.md, "Start from the skeleton"). It reports two facts of
 * the host: the kernel's limit on asynchronous I/O requests and how many are
 * in use (/proc/sys/fs/aio-max-nr and aio-nr; the libaio engine needs room).
 *
 * Build it alone:  cc -O2 -fPIC -shared -I<hbatest>/core -o myprobe.so myprobe.c
 * then:            hbatest probe --plugin-path .
 *
 * The contract in brief (core/hbatest/plugin.h has it whole):
 * - Include only "hbatest/plugin.h" and "hbatest/sysfs.h" (inline helpers
 *   that read files under a root); export one symbol, hbatest_plugin.
 * - Read everything under the root collect() is given, never "/" itself, so
 *   that a test runs the probe on a fixture tree (HBATEST_SYSFS_ROOT).
 * - A fact the system does not expose is left out, never invented or guessed.
 * - A probe never fails a run: what goes wrong is a missing fact.
 */
#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

/* Called in the main thread, at `hbatest probe` and at a run's start and end
 * (and at hb.probe() in a plan), once for the host (target NULL), or once per
 * target with HB_PROBE_PER_TARGET in flags (target then a block device,
 * "/dev/sdb"). It may read files and block briefly; it starts no thread and
 * keeps nothing past its return. Each fact goes to emit(emit_ctx, key,
 * value), both copied by the core: a key in lowercase words joined by '_'
 * ("memory_bytes"), a value as text (numbers in decimal, sizes in bytes).
 * Return 0, -ENOENT when the probe does
 * not apply here (it reported nothing), or another -errno. */
static int skeleton_collect(const char *root, const char *target, const struct hb_kv *opts,
			    unsigned nopts, hb_emit_fn emit, void *emit_ctx)
{
	int found = 0;

	(void)target;	/* a host probe: always NULL */
	(void)opts;	/* no options: the table below is NULL */
	(void)nopts;
	found += hb_emit_attr(root, "proc/sys/fs", "aio-max-nr", "aio_max_nr", emit, emit_ctx);
	found += hb_emit_attr(root, "proc/sys/fs", "aio-nr", "aio_nr", emit, emit_ctx);
	return found ? 0 : -ENOENT;
}

static const struct hb_probe_ops skeleton_probe_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = skeleton_collect,
	.flags = 0,	/* HB_PROBE_PER_TARGET: collect() once per target instead */
};

/* The one symbol the loader looks up. A plugin name is unique among engines
 * and probes alike: the engine skeleton is "skeleton". */
const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "skeleton_probe",
	"the kernel's asynchronous I/O limit and use: the probe to copy for a new one",
	&skeleton_probe_ops, NULL);
