/* host probe: kernel, CPU model, sockets/cores/threads, memory, NUMA nodes. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

static void emit_u(hb_emit_fn emit, void *ctx, const char *key, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	emit(ctx, key, buf);
}

/* /proc/cpuinfo: model, threads, and sockets x cores from physical id / cpu cores */
static void cpuinfo(const char *root, hb_emit_fn emit, void *ctx)
{
	char path[PATH_MAX], line[512], model[256] = "";
	unsigned threads = 0, cores = 0, sockets = 0, seen[256] = { 0 };
	int phys = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", strcmp(root, "/") ? root : "");
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "processor", 9))
			threads++;
		else if (!strncmp(line, "model name", 10) && !model[0])
			snprintf(model, sizeof(model), "%s", v);
		else if (!strncmp(line, "physical id", 11))
			phys = atoi(v);
		else if (!strncmp(line, "cpu cores", 9) && phys >= 0 && phys < 256 && !seen[phys]) {
			seen[phys] = 1;
			sockets++;
			cores += (unsigned)atoi(v);
		}
	}
	fclose(f);
	if (model[0])
		emit(ctx, "cpu_model", model);
	if (sockets) {
		emit_u(emit, ctx, "sockets", sockets);
		emit_u(emit, ctx, "cores", cores);
	}
	if (threads)
		emit_u(emit, ctx, "threads", threads);
}

static void meminfo(const char *root, hb_emit_fn emit, void *ctx)
{
	char buf[4096];
	char *p;

	if (hb_sysfs_read(root, "proc/meminfo", buf, sizeof(buf)) < 0)
		return;
	p = strstr(buf, "MemTotal:");
	if (p) {	/* "MemTotal:  131891340 kB": a value that is not one is left out */
		char *end;
		unsigned long long kb = strtoull(p + 9, &end, 10);

		if (end > p + 9 && kb && kb <= ULLONG_MAX / 1024)
			emit_u(emit, ctx, "memory_bytes", kb * 1024);
	}
}

static void numa(const char *root, hb_emit_fn emit, void *ctx)
{
	char path[PATH_MAX];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/devices/system/node", strcmp(root, "/") ? root : "");
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			n++;
	closedir(d);
	emit_u(emit, ctx, "numa_nodes", n);
}

static int host_collect(const char *root, const char *target, const struct hb_kv *opts,
			unsigned nopts, hb_emit_fn emit, void *ctx)
{
	(void)target;
	(void)opts;
	(void)nopts;
	hb_emit_attr(root, "proc/sys/kernel", "hostname", "hostname", emit, ctx);
	hb_emit_attr(root, "proc/sys/kernel", "osrelease", "kernel", emit, ctx);
	cpuinfo(root, emit, ctx);
	meminfo(root, emit, ctx);
	numa(root, emit, ctx);
	return 0;
}

static const struct hb_probe_ops host_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = host_collect,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "host",
	"kernel, CPU model, sockets/cores/threads, memory, NUMA nodes", &host_ops, NULL);
