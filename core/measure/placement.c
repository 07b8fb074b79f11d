/* Where a step's workers run: CPU lists, the NUMA node of a target's device,
 * pinning worker threads and binding their buffers to that node. */
#include <assert.h>
#include <dirent.h>
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

#include "hbatest/sysfs.h"
#include "measure/placement.h"
#include "measure/probe.h"
#include "measure/workload.h"

#define MPOL_PREFERRED_MODE 1	/* linux/mempolicy.h MPOL_PREFERRED */

/* A list "0-3,8" into set: 0, -EINVAL when it is not one, or -ERANGE with
 * *big the largest CPU number in it that a cpu_set_t cannot hold. */
static int parse_list_big(const char *s, cpu_set_t *set, unsigned long *big)
{
	*big = 0;
	CPU_ZERO(set);
	if (!*s)
		return -EINVAL;
	while (*s) {
		char *end;
		unsigned long a, b;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || (*end && *end != ','))
			return -EINVAL;
		if (b >= CPU_SETSIZE && b > *big)
			*big = b;
		for (unsigned long c = a; c <= b && c < CPU_SETSIZE; c++)
			CPU_SET(c, set);
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -EINVAL;	/* a trailing comma */
	}
	return *big ? -ERANGE : 0;
}

static bool parse_list(const char *s, cpu_set_t *set)
{
	unsigned long big;

	return parse_list_big(s, set, &big) == 0;
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

/* The CPUs of want the kernel lets this process run on (its cpuset, which
 * sched_setaffinity(2) intersects with): the calling thread's affinity set
 * to want, read back and restored. -errno when it cannot tell. */
static int allowed_cpus(const cpu_set_t *want, cpu_set_t *got)
{
	cpu_set_t old;
	int rc = 0;

	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	CPU_ZERO(got);
	if (sched_setaffinity(0, sizeof(*want), want))
		return errno == EINVAL ? 0 : -errno;	/* EINVAL: none of them */
	if (sched_getaffinity(0, sizeof(*got), got))
		rc = -errno;
	sched_setaffinity(0, sizeof(old), &old);
	return rc;
}

/* How many CPUs of want have lacks, named in buf ("CPU 5", "CPUs 2-5"). */
static int cpus_missing(const cpu_set_t *want, const cpu_set_t *have, char *buf, size_t len)
{
	cpu_set_t miss;
	char list[128];

	CPU_XOR(&miss, want, have);
	CPU_AND(&miss, &miss, want);
	if (!CPU_COUNT(&miss))
		return 0;
	placement_format_cpus(&miss, list, sizeof(list));
	snprintf(buf, len, CPU_COUNT(&miss) == 1 ? "CPU %s" : "CPUs %s", list);
	return CPU_COUNT(&miss);
}

/* Every CPU of set present, online and allowed to this process; -EINVAL
 * with a message naming the first kind of CPU that is not. */
static int check_cpus(const char *list, const cpu_set_t *set, char *err, size_t len)
{
	char present_text[256], online_text[256], allowed_text[256], miss[160];
	cpu_set_t present, online, allowed;
	int n;

	if (hb_sysfs_read(probe_root(), "sys/devices/system/cpu/present", present_text,
			  sizeof(present_text)) >= 0 &&
	    parse_list(present_text, &present) &&
	    (n = cpus_missing(set, &present, miss, sizeof(miss)))) {
		snprintf(err, len, "cpus=\"%s\": %s %s not exist (this machine has CPUs %s)",
			 list, miss, n == 1 ? "does" : "do", present_text);
		return -EINVAL;
	}
	if (hb_sysfs_read(probe_root(), "sys/devices/system/cpu/online", online_text,
			  sizeof(online_text)) < 0 ||
	    !parse_list(online_text, &online))
		return 0;	/* cannot tell: pinning will say */
	if ((n = cpus_missing(set, &online, miss, sizeof(miss)))) {
		snprintf(err, len, "cpus=\"%s\": %s %s not online (online: %s)", list, miss,
			 n == 1 ? "is" : "are", online_text);
		return -EINVAL;
	}
	if (!allowed_cpus(&online, &allowed) &&
	    (n = cpus_missing(set, &allowed, miss, sizeof(miss)))) {
		placement_format_cpus(&allowed, allowed_text, sizeof(allowed_text));
		snprintf(err, len, "cpus=\"%s\": %s %s outside this process's cpuset (it may "
			 "use CPUs %s)", list, miss, n == 1 ? "is" : "are", allowed_text);
		return -EINVAL;
	}
	return 0;
}

int placement_parse_cpus(const char *list, cpu_set_t *out, char *err, size_t len)
{
	char present_text[256] = "";
	unsigned long big;
	int rc = parse_list_big(list, out, &big);

	if (rc == -ERANGE) {
		if (hb_sysfs_read(probe_root(), "sys/devices/system/cpu/present", present_text,
				  sizeof(present_text)) < 0)
			snprintf(present_text, sizeof(present_text), "0-%d at most", CPU_SETSIZE - 1);
		snprintf(err, len, "cpus=\"%s\": CPU %lu does not exist (this machine has CPUs %s)",
			 list, big, present_text);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, len, "cpus=\"%s\": expected a CPU list such as \"0-7,16-23\"", list);
		return -EINVAL;
	}
	return check_cpus(list, out, err, len);
}

/* The resolved sysfs folder of the device under path (its file system's,
 * for a file) in real, and the length of the sysfs root before it in *rl;
 * false when it has none (tmpfs, a missing path). */
static bool device_dir(const char *path, char *real, size_t *rl)
{
	const char *root = probe_root();
	char rel[64], link[PATH_MAX * 2];
	struct stat st;
	dev_t dev;

	*rl = strcmp(root, "/") ? strlen(root) : 0;
	if (stat(path, &st) < 0)
		return false;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major(dev), minor(dev));
	snprintf(link, sizeof(link), "%s/%s", *rl ? root : "", rel);
	return realpath(link, real) != NULL;
}

/* Up the device path from real: the first folder holding name (the PCI
 * device, for numa_node or msi_irqs); real is cut to it. false: none. */
static bool up_to(char *real, size_t rl, const char *name)
{
	for (char *slash; strlen(real) > rl + 12; ) {
		char attr[PATH_MAX + 16];

		snprintf(attr, sizeof(attr), "%s/%s", real, name);
		if (!access(attr, F_OK))
			return true;
		if (!(slash = strrchr(real, '/')))
			break;
		*slash = '\0';
	}
	return false;
}

int placement_target_node(const char *path)
{
	char real[PATH_MAX], attr[PATH_MAX + 16], val[32];
	size_t rl;
	FILE *f;
	int node;

	if (!device_dir(path, real, &rl) || !up_to(real, rl, "numa_node"))
		return -1;
	snprintf(attr, sizeof(attr), "%s/numa_node", real);
	if (!(f = fopen(attr, "re")))
		return -1;
	node = fgets(val, sizeof(val), f) ? atoi(val) : -1;
	fclose(f);
	return node;
}

/* Add to set the CPUs that serve interrupt irq (/proc/irq/N: the effective
 * affinity, else the allowed one), and its number to the list in irqs (or
 * "..." once when the list is full). false when unknown. */
static bool irq_add(unsigned long irq, cpu_set_t *set, char *irqs, size_t len)
{
	char rel[64], list[256], num[24];
	cpu_set_t one;
	size_t n = strlen(irqs);

	snprintf(rel, sizeof(rel), "proc/irq/%lu/effective_affinity_list", irq);
	if (hb_sysfs_read(probe_root(), rel, list, sizeof(list)) < 0 || !parse_list(list, &one) ||
	    !CPU_COUNT(&one)) {
		snprintf(rel, sizeof(rel), "proc/irq/%lu/smp_affinity_list", irq);
		if (hb_sysfs_read(probe_root(), rel, list, sizeof(list)) < 0 || !parse_list(list, &one))
			return false;
	}
	CPU_OR(set, set, &one);
	snprintf(list, sizeof(list), ",%s,", irqs);
	snprintf(num, sizeof(num), ",%lu,", irq);
	if (strstr(list, num))
		return true;	/* another target on the same device */
	snprintf(num, sizeof(num), "%s%lu", n ? "," : "", irq);
	if (n + strlen(num) + 4 < len)
		strcat(irqs, num);
	else if (n + 4 < len && (n < 3 || strcmp(irqs + n - 3, "...")))
		strcat(irqs, ",...");
	return true;
}

/* How often interrupt irq has fired (/sys/kernel/irq/N/per_cpu_count, summed);
 * 0 when unknown. */
static unsigned long long irq_count(unsigned long irq)
{
	char rel[64], buf[8192];
	unsigned long long sum = 0;
	char *s = buf;

	snprintf(rel, sizeof(rel), "sys/kernel/irq/%lu/per_cpu_count", irq);
	if (hb_sysfs_read(probe_root(), rel, buf, sizeof(buf)) < 0)
		return 0;
	while (*s >= '0' && *s <= '9') {
		sum += strtoull(s, &s, 10);
		if (*s == ',')
			s++;
	}
	return sum;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* Whether the block device at real (its sysfs folder) has one hardware queue:
 * one folder under mq/ (a partition's are its disk's). */
static bool one_queue(const char *real)
{
	char dir[PATH_MAX + 16];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/mq", real);
	if (!(d = opendir(dir))) {
		snprintf(dir, sizeof(dir), "%s/../mq", real);
		if (!(d = opendir(dir)))
			return false;
	}
	while ((e = readdir(d)))
		n += e->d_name[0] >= '0' && e->d_name[0] <= '9';
	closedir(d);
	return n == 1;
}

#define MAX_VECTORS 64	/* more: a vector per CPU, nothing to narrow */

/* The interrupt vectors of the PCI function at real: its MSI/MSI-X vectors
 * (msi_irqs/), else its legacy irq; in order. How many, or 0: none, or more
 * than MAX_VECTORS. */
static size_t vectors(const char *real, unsigned long *v)
{
	char dir[PATH_MAX + 16], val[32];
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/msi_irqs", real);
	if ((d = opendir(dir))) {
		while ((e = readdir(d)))
			if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
				if (n == MAX_VECTORS) {
					n = 0;
					break;
				}
				v[n++] = strtoul(e->d_name, NULL, 10);
			}
		closedir(d);
		qsort(v, n, sizeof(v[0]), cmp_ulong);	/* named in order in steps.placement */
		return n;
	}
	snprintf(dir, sizeof(dir), "%s/irq", real);
	if (!(f = fopen(dir, "re")))
		return 0;
	if (fgets(val, sizeof(val), f) && atol(val) > 0)
		v[n++] = strtoul(val, NULL, 10);
	fclose(f);
	return n;
}

/* The CPUs that take the completions of the device under path, when it has
 * one hardware queue: the vectors of its PCI function (the folder with
 * numa_node nearest the block device) that carry its interrupts (those
 * that fired at least an eighth as often as the busiest: not a virtio
 * config or an admin vector; all of them when none has fired). false when
 * anything is unknown: a vector without /proc/irq, no PCI function. */
static bool target_irq_cpus(const char *path, cpu_set_t *set, char *irqs, size_t len)
{
	char real[PATH_MAX];
	unsigned long v[MAX_VECTORS];
	unsigned long long count[MAX_VECTORS], most = 0;
	size_t rl, n;

	if (!device_dir(path, real, &rl) || !one_queue(real) || !up_to(real, rl, "numa_node") ||
	    !(n = vectors(real, v)))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((count[i] = irq_count(v[i])) > most)
			most = count[i];
	for (size_t i = 0; i < n; i++)
		if (count[i] * 8 >= most && !irq_add(v[i], set, irqs, len))
			return false;
	return true;
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

/* numa="auto": narrow base (the CPUs the workers may use) to the CPUs that
 * take the targets' interrupts, when every target's are known, fewer than
 * base and at least one per worker. A device with one completion interrupt
 * (a single-queue virtio disk, AHCI) completes every request there; a
 * worker on another CPU is woken through an inter-processor interrupt (see
 * docs/benchmarks.md, Placement). Multi-queue devices (NVMe, most SAS HBAs) have a
 * vector per CPU: their union is every CPU and nothing is narrowed. */
static bool narrow_to_irqs(const struct workload *wl, cpu_set_t *base, char *irqs, size_t len)
{
	cpu_set_t irq, allowed;

	CPU_ZERO(&irq);
	irqs[0] = '\0';
	for (unsigned i = 0; i < wl->ntargets; i++)
		if (!target_irq_cpus(wl->targets[i].path, &irq, irqs, len))
			return false;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return false;
	CPU_AND(&irq, &irq, base);
	CPU_AND(&irq, &irq, &allowed);
	CPU_AND(&allowed, &allowed, base);
	if (!CPU_COUNT(&irq) || CPU_COUNT(&irq) >= CPU_COUNT(&allowed) ||
	    (unsigned)CPU_COUNT(&irq) < wl->workers)
		return false;
	*base = irq;
	return true;
}

int placement_decide(const struct workload *wl, const char *cpus, enum numa_mode numa,
		     struct placement *p, char *err, size_t len)
{
	char rel[64], list[256], irqs[41] = "";	/* fits in text[] whole */
	bool by_irq = false;
	int rc;

	memset(p, 0, sizeof(*p));
	p->node = numa != NUMA_NONE ? targets_node(wl) : -1;
	if (cpus) {
		if ((rc = placement_parse_cpus(cpus, &p->cpus, err, len)))
			return rc;
		p->pin = true;
	} else if (numa != NUMA_NONE) {
		bool known = false;

		if (p->node >= 0) {
			snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpulist", p->node);
			known = hb_sysfs_read(probe_root(), rel, list, sizeof(list)) >= 0 &&
				parse_list(list, &p->cpus);
		}
		if (!known) {
			for (int c = 0; c < CPU_SETSIZE; c++)
				CPU_SET(c, &p->cpus);
		}
		by_irq = numa == NUMA_AUTO && narrow_to_irqs(wl, &p->cpus, irqs, sizeof(irqs));
		p->pin = known || by_irq;
	}
	if (!p->pin) {
		snprintf(p->text, sizeof(p->text), "none");
		return 0;
	}
	placement_format_cpus(&p->cpus, list, sizeof(list));
	rc = snprintf(p->text, sizeof(p->text), "cpus=%.*s", by_irq ? 60 : 100, list);
	if (p->node >= 0)
		rc += snprintf(p->text + rc, sizeof(p->text) - (size_t)rc, " node=%d", p->node);
	assert((size_t)rc < sizeof(p->text));	/* the list cut to fit, irqs[] with it */
	if (by_irq)
		snprintf(p->text + rc, sizeof(p->text) - (size_t)rc, " irq=%s", irqs);
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
