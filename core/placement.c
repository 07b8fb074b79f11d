/* Where a step's workers run: CPU lists, the NUMA node of a target's device,
 * pinning worker threads and binding their buffers to that node. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "placement.h"
#include "probe.h"
#include "workload.h"

#define MPOL_PREFERRED_MODE 1	/* linux/mempolicy.h MPOL_PREFERRED */

/* "<root>/<rel>" into buf, trailing white space cut; -errno */
static int sys_read(const char *rel, char *buf, size_t len)
{
	const char *root = probe_root();
	char path[PATH_MAX * 2];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", strcmp(root, "/") ? root : "", rel);
	if (!(f = fopen(path, "re")))
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/* A list "0-3,8" into set; false when it is not one. */
static bool parse_list(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (!*s)
		return false;
	while (*s) {
		char *end;
		unsigned long a, b;

		if (*s < '0' || *s > '9')
			return false;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return false;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= CPU_SETSIZE || (*end && *end != ','))
			return false;
		for (unsigned long c = a; c <= b; c++)
			CPU_SET(c, set);
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return false;	/* a trailing comma */
	}
	return true;
}

void placement_format_cpus(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > c ? "%s%d-%d" : "%s%d",
				      n ? "," : "", c, e);
		c = e;
	}
}

int placement_parse_cpus(const char *list, cpu_set_t *out, char *err, size_t len)
{
	char online_text[256];
	cpu_set_t online;

	if (!parse_list(list, out)) {
		snprintf(err, len, "cpus=\"%s\": expected a CPU list such as \"0-7,16-23\"", list);
		return -EINVAL;
	}
	if (sys_read("sys/devices/system/cpu/online", online_text, sizeof(online_text)) ||
	    !parse_list(online_text, &online))
		return 0;	/* cannot tell: pinning will say */
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, out) && !CPU_ISSET(c, &online)) {
			snprintf(err, len, "cpus=\"%s\": CPU %d is not online (online: %s)",
				 list, c, online_text);
			return -EINVAL;
		}
	}
	return 0;
}

int placement_target_node(const char *path)
{
	const char *root = probe_root();
	char rel[64], link[PATH_MAX * 2], real[PATH_MAX], val[32];
	size_t rl = strcmp(root, "/") ? strlen(root) : 0;
	struct stat st;
	dev_t dev;

	if (stat(path, &st) < 0)
		return -1;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major(dev), minor(dev));
	snprintf(link, sizeof(link), "%s/%s", rl ? root : "", rel);
	if (!realpath(link, real))
		return -1;
	/* up the device path: the first folder with numa_node (the PCI device) */
	for (char *slash; (slash = strrchr(real, '/')) && strlen(real) > rl + 12; *slash = '\0') {
		char attr[PATH_MAX + 16];
		FILE *f;
		int node;

		snprintf(attr, sizeof(attr), "%s/numa_node", real);
		if (!(f = fopen(attr, "re")))
			continue;
		node = fgets(val, sizeof(val), f) ? atoi(val) : -1;
		fclose(f);
		return node;
	}
	return -1;
}

/* The node every target is on, or -1 (unknown, or targets on several). */
static int targets_node(const struct workload *wl)
{
	int node = -1;

	for (unsigned i = 0; i < wl->ntargets; i++) {
		int n = placement_target_node(wl->targets[i].path);

		if (n < 0 || (i && n != node))
			return -1;
		node = n;
	}
	return node;
}

int placement_decide(const struct workload *wl, const char *cpus, bool numa_auto,
		     struct placement *p, char *err, size_t len)
{
	char rel[64], list[256];
	int rc;

	memset(p, 0, sizeof(*p));
	p->node = numa_auto ? targets_node(wl) : -1;
	if (cpus) {
		if ((rc = placement_parse_cpus(cpus, &p->cpus, err, len)))
			return rc;
		p->pin = true;
	} else if (p->node >= 0) {
		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpulist", p->node);
		p->pin = !sys_read(rel, list, sizeof(list)) && parse_list(list, &p->cpus);
	}
	if (!p->pin) {
		snprintf(p->text, sizeof(p->text), "none");
		return 0;
	}
	placement_format_cpus(&p->cpus, list, sizeof(list));
	if (p->node >= 0)
		snprintf(p->text, sizeof(p->text), "cpus=%.80s node=%d", list, p->node);
	else
		snprintf(p->text, sizeof(p->text), "cpus=%.100s", list);
	return 0;
}

int placement_pin_self(const struct placement *p)
{
	if (!p || !p->pin)
		return 0;
	return -pthread_setaffinity_np(pthread_self(), sizeof(p->cpus), &p->cpus);
}

void placement_bind_memory(const struct placement *p, void *buf, size_t len)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };

	if (!p || p->node < 0 || p->node >= 1024)
		return;
	mask[p->node / (8 * sizeof(unsigned long))] |= 1ul << (p->node % (8 * sizeof(unsigned long)));
	/* no libnuma: the system call itself; a failure leaves the kernel's choice */
	syscall(SYS_mbind, buf, len, MPOL_PREFERRED_MODE, mask, 1024ul, 0u);
}
